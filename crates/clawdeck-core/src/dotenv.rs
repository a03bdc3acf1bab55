//! The dotenv files OpenClaw loads (a leaf: the config loader reads them, the semantics count
//! their variables as credentials). OpenClaw loads `<state dir>/.env` into its environment at
//! start, and with the default state dir also `~/.config/openclaw/gateway.env`
//! (loadGlobalRuntimeDotEnvFiles; the first file that sets a variable wins, and a variable the
//! environment already has wins over both), so a provider key written there brings the media
//! tools as one in `env.vars` does (both releases). clawdeck reads the `.env` beside the config
//! file it loaded, which is the state dir's for OpenClaw's own config, and `gateway.env` when
//! that config is in `~/.openclaw`; only which variables a file sets to something other than
//! blanks is kept, never a value.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Most variables kept from one file; the rest are left out, and a warning says so.
pub const MAX_VARIABLES: usize = 4096;

/// Where OpenClaw looks for a dotenv file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DotEnvPlace {
    /// `<state dir>/.env`.
    #[default]
    StateDir,
    /// `~/.config/openclaw/gateway.env` (only with the default state dir, `~/.openclaw`).
    GatewayEnv,
    /// The login shell's environment (`env.shellEnv.enabled`), which a home's `~/.profile`
    /// sets ([`crate::login_shell_env`]); its `path` is the shell.
    LoginShell,
}

impl DotEnvPlace {
    /// Where the file is under a home whose state dir is the default one.
    pub fn under_home(self) -> PathBuf {
        match self {
            DotEnvPlace::StateDir => Path::new(".openclaw").join(".env"),
            DotEnvPlace::GatewayEnv => Path::new(".config").join("openclaw").join("gateway.env"),
            DotEnvPlace::LoginShell => PathBuf::from(".profile"),
        }
    }
}

/// The dotenv files OpenClaw loads with the config at `config_path`, in its order: the `.env`
/// beside it, then `gateway.env` when that is the default state dir of `home`.
pub fn files_for(config_path: &Path, home: Option<&Path>) -> Vec<(DotEnvPlace, PathBuf)> {
    let Some(dir) = config_path.parent() else {
        return Vec::new();
    };
    let mut files = vec![(DotEnvPlace::StateDir, dir.join(".env"))];
    if let Some(home) = home
        && dir == home.join(".openclaw")
    {
        files.push((
            DotEnvPlace::GatewayEnv,
            home.join(DotEnvPlace::GatewayEnv.under_home()),
        ));
    }
    files
}

/// The variables a dotenv file sets to something other than blanks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DotEnv {
    /// The file.
    pub path: PathBuf,
    /// Where OpenClaw looks for it.
    pub place: DotEnvPlace,
    /// Its variables with a value that is not blank.
    pub set: BTreeSet<String>,
}

/// The variables `text` sets to something other than blanks, as the `dotenv` format writes
/// them: `KEY=value`, `export KEY=value`, a value in single, double or back quotes (which may
/// span lines), `#` starting a comment outside quotes. Also how many more there were than
/// [`MAX_VARIABLES`].
pub fn set_variables(text: &str) -> (BTreeSet<String>, usize) {
    let mut names = BoundedNames::default();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        rest = after;
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let valid = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        let value = value.trim_start();
        let (filled, consumed) = value_is_filled(value, rest);
        rest = &rest[consumed..];
        if valid && filled {
            names.insert(key);
        }
    }
    (names.set, names.left_out)
}

/// Whether `name` is an environment variable's name as a shell writes it
/// (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Variable names kept up to [`MAX_VARIABLES`], with a count of the others.
#[derive(Debug, Default)]
pub(crate) struct BoundedNames {
    pub set: BTreeSet<String>,
    pub left_out: usize,
}

impl BoundedNames {
    pub fn insert(&mut self, name: &str) {
        if self.set.len() < MAX_VARIABLES {
            self.set.insert(name.to_string());
        } else if !self.set.contains(name) {
            self.left_out += 1;
        }
    }
}

/// The warning for a source (`origin`) that set `left_out` more variables than clawdeck keeps.
pub(crate) fn left_out_warning(origin: &str, left_out: usize) -> Option<String> {
    (left_out > 0).then(|| {
        format!("{origin}: {left_out} more variables than the {MAX_VARIABLES} clawdeck reads were left out")
    })
}

/// Whether a value (the line after `=`) is something other than blanks, and how much of the
/// text after the line a quoted value that spans lines took.
fn value_is_filled(value: &str, after: &str) -> (bool, usize) {
    let Some(quote) = value
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))
    else {
        let unquoted = value.split('#').next().unwrap_or_default();
        return (!unquoted.trim().is_empty(), 0);
    };
    let inner = &value[1..];
    if let Some(end) = inner.find(quote) {
        return (!inner[..end].trim().is_empty(), 0);
    }
    // The value goes on past this line, up to its closing quote (none: to the end).
    let end = after.find(quote).unwrap_or(after.len());
    let consumed = after[end..]
        .find('\n')
        .map_or(after.len(), |nl| end + nl + 1);
    let filled = !inner.trim().is_empty() || !after[..end].trim().is_empty();
    (filled, consumed)
}

/// Reads the dotenv file at `path` (with the loader's bounded `read`); `None` when there is
/// none, and a warning when it sets more variables than clawdeck keeps.
pub fn read(
    place: DotEnvPlace,
    path: &Path,
    read: impl Fn(&Path) -> Result<String, String>,
) -> Result<Option<(DotEnv, Option<String>)>, String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let text = read(path).map_err(|err| format!("{}: {err}", path.display()))?;
    let (set, left_out) = set_variables(&text);
    let warning = left_out_warning(&path.display().to_string(), left_out);
    let path = path.to_path_buf();
    Ok(Some((DotEnv { path, place, set }, warning)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> Vec<String> {
        set_variables(text).0.into_iter().collect()
    }

    #[test]
    fn only_variables_with_a_value_other_than_blanks_count() {
        let text = "# keys\nOPENAI_API_KEY=sk-1\nexport FAL_KEY = fal \nBLANK=\nSPACES=   \n\
                    EMPTY_QUOTES=\"\"\nCOMMENT_ONLY= # nothing\nQUOTED='x # y'\n\
                    bad key=1\n=novalue\nDOTTED.name-1=v\n";
        assert_eq!(
            set(text),
            ["DOTTED.name-1", "FAL_KEY", "OPENAI_API_KEY", "QUOTED"]
        );
    }

    #[test]
    fn a_quoted_value_may_span_lines_and_what_it_holds_is_no_variable() {
        let text = "CERT=\"-----BEGIN\nHIDDEN=1\n-----END\"\nAFTER=2\nBLANK_SPAN=\"\n\n\"\n";
        assert_eq!(set(text), ["AFTER", "CERT"]);
        // No closing quote: the rest of the file is the value.
        assert_eq!(set("OPEN='abc\nNEXT=1\n"), ["OPEN"]);
    }

    #[test]
    fn any_text_parses_and_the_kept_variables_are_bounded() {
        for text in ["", "\n\n", "=", "'", "\"\n\"", "é=ü", "\u{0}=\u{0}", "A=`"] {
            let _ = set_variables(text);
        }
        let many: String = (0..MAX_VARIABLES + 10)
            .map(|i| format!("K{i}=v\n"))
            .collect();
        let (kept, left_out) = set_variables(&many);
        assert_eq!((kept.len(), left_out), (MAX_VARIABLES, 10));
    }

    #[test]
    fn the_loader_reads_the_env_beside_the_config_and_a_bad_one_is_only_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("openclaw.json5");
        std::fs::write(&config, "{}").unwrap();
        let loaded = crate::config::load(Some(&config)).unwrap();
        assert_eq!(loaded.dotenv_files, []);
        std::fs::write(dir.path().join(".env"), "FAL_KEY=k\nBLANK=\n").unwrap();
        let loaded = crate::config::load(Some(&config)).unwrap();
        let [dotenv] = loaded.dotenv_files.as_slice() else {
            panic!("{:?}", loaded.dotenv_files);
        };
        assert_eq!(dotenv.path, dir.path().join(".env"));
        assert_eq!(dotenv.place, DotEnvPlace::StateDir);
        assert_eq!(dotenv.set.iter().collect::<Vec<_>>(), ["FAL_KEY"]);
        // A directory (or FIFO) where the .env would be: loaded, with a warning naming it.
        std::fs::remove_file(dir.path().join(".env")).unwrap();
        std::fs::create_dir(dir.path().join(".env")).unwrap();
        let loaded = crate::config::load(Some(&config)).unwrap();
        assert_eq!(loaded.dotenv_files, []);
        assert!(
            loaded
                .warnings
                .iter()
                .any(|w| w.contains(".env") && w.contains("not counted")),
            "{:?}",
            loaded.warnings
        );
    }

    #[test]
    fn gateway_env_counts_only_beside_the_default_state_dir() {
        let home = Path::new("/home/op");
        let default = files_for(&home.join(".openclaw/openclaw.json"), Some(home));
        assert_eq!(
            default,
            [
                (DotEnvPlace::StateDir, home.join(".openclaw/.env")),
                (
                    DotEnvPlace::GatewayEnv,
                    home.join(".config/openclaw/gateway.env")
                ),
            ]
        );
        // A config elsewhere stands for another state dir (OPENCLAW_STATE_DIR): its own .env only.
        let elsewhere = files_for(Path::new("/srv/claw/openclaw.json"), Some(home));
        assert_eq!(
            elsewhere,
            [(DotEnvPlace::StateDir, PathBuf::from("/srv/claw/.env"))]
        );
        assert_eq!(
            files_for(&home.join(".openclaw/openclaw.json"), None).len(),
            1
        );
    }
}
