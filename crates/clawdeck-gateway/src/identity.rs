//! clawdeck's device identity for the gateway handshake: one ed25519 key, created once and
//! kept 0600 in the (0700) state dir, and the exact payload OpenClaw verifies. The key file is
//! trusted only as a regular file of this user's that nobody else can read or write.
//!
//! As OpenClaw defines it (`packages/gateway-client/src/device-auth.ts`,
//! `src/infra/device-identity-store.ts`): the device id is the SHA-256 hex of the raw 32-byte
//! public key; the wire carries the raw public key and the signature as unpadded base64url;
//! the signed text is the `v3` payload
//! `v3|deviceId|clientId|clientMode|role|scopes,comma,joined|signedAtMs|token|nonce|platform|deviceFamily`
//! with platform and device family trimmed and ASCII-lowercased.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signer, SigningKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// File name of the identity inside the state dir.
pub const IDENTITY_FILE: &str = "gateway-device.json";

/// The device key and its derived id.
#[derive(Clone)]
pub struct DeviceIdentity {
    key: SigningKey,
    device_id: String,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for DeviceIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceIdentity")
            .field("device_id", &self.device_id)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// On disk: the 32-byte secret seed, base64url, plus the public facts for the operator's eyes.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredIdentity {
    version: u32,
    device_id: String,
    public_key: String,
    secret_seed: String,
}

/// What the signature covers (the `v3` device-auth payload).
#[derive(Debug, Clone, PartialEq)]
pub struct AuthPayload<'a> {
    pub device_id: &'a str,
    pub client_id: &'a str,
    pub client_mode: &'a str,
    pub role: &'a str,
    pub scopes: &'a [String],
    pub signed_at_ms: u64,
    /// The token sent in `auth.token` (shared or device token); empty for password auth.
    pub token: Option<&'a str>,
    pub nonce: &'a str,
    pub platform: &'a str,
    pub device_family: Option<&'a str>,
}

/// OpenClaw's metadata normalisation: trim, then ASCII upper case to lower case.
fn normalize_metadata(value: &str) -> String {
    value.trim().to_ascii_lowercase()
}

impl AuthPayload<'_> {
    /// The exact text that is signed.
    pub fn text(&self) -> String {
        [
            "v3".to_string(),
            self.device_id.to_string(),
            self.client_id.to_string(),
            self.client_mode.to_string(),
            self.role.to_string(),
            self.scopes.join(","),
            self.signed_at_ms.to_string(),
            self.token.unwrap_or("").to_string(),
            self.nonce.to_string(),
            normalize_metadata(self.platform),
            normalize_metadata(self.device_family.unwrap_or("")),
        ]
        .join("|")
    }
}

impl DeviceIdentity {
    /// An identity from a 32-byte secret seed (tests and the stored file).
    pub fn from_seed(seed: [u8; 32]) -> DeviceIdentity {
        let key = SigningKey::from_bytes(&seed);
        let device_id = device_id_for(&key.verifying_key().to_bytes());
        DeviceIdentity {
            key,
            device_id,
            path: None,
        }
    }

    /// clawdeck's own identity, kept in its state dir (`clawdeck paths` shows where): the one
    /// every command and the console present to gateways.
    pub fn load_default() -> Result<DeviceIdentity, String> {
        DeviceIdentity::load_or_create(&crate::paths::state_dir()?)
    }

    /// Loads the identity from `dir`, creating it (0600, in a 0700 dir) the first time. The key
    /// file is used only when it is a regular file (not a link, FIFO or device), owned by this
    /// user and private to them; otherwise the error names the file and the fix.
    pub fn load_or_create(dir: &Path) -> Result<DeviceIdentity, String> {
        crate::paths::private_state_dir(dir)?;
        let path = dir.join(IDENTITY_FILE);
        match read_key_file(&path) {
            Ok(text) => Self::parse_stored(&text, &path),
            Err(KeyFileError::Missing) => Self::create(&path),
            Err(KeyFileError::Refused(why)) => Err(why),
        }
    }

    fn parse_stored(text: &str, path: &Path) -> Result<DeviceIdentity, String> {
        let broken = |why: String| {
            format!(
                "{}: {why}; move the file away to create a new device identity (the gateway will then ask to pair it again)",
                path.display()
            )
        };
        let stored: StoredIdentity =
            serde_json::from_str(text).map_err(|err| broken(err.to_string()))?;
        let seed = URL_SAFE_NO_PAD
            .decode(stored.secret_seed.as_bytes())
            .map_err(|err| broken(format!("secretSeed is not base64url: {err}")))?;
        let seed: [u8; 32] = seed
            .try_into()
            .map_err(|_| broken("secretSeed is not 32 bytes".to_string()))?;
        let mut identity = Self::from_seed(seed);
        if identity.device_id != stored.device_id {
            return Err(broken(
                "deviceId does not match the key's fingerprint".to_string(),
            ));
        }
        identity.path = Some(path.to_path_buf());
        Ok(identity)
    }

    fn create(path: &Path) -> Result<DeviceIdentity, String> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)
            .map_err(|err| format!("no randomness for a device key: {err}"))?;
        let mut identity = Self::from_seed(seed);
        let stored = StoredIdentity {
            version: 1,
            device_id: identity.device_id.clone(),
            public_key: identity.public_key(),
            secret_seed: URL_SAFE_NO_PAD.encode(seed),
        };
        let text = serde_json::to_string_pretty(&stored).unwrap_or_default();
        // Written whole under a private name, then linked into place: a clawdeck starting at the
        // same moment sees either no file or the complete one, never a half-written one, and
        // exactly one key wins.
        let staged = dir.join(format!(
            ".{IDENTITY_FILE}.{}.{}",
            std::process::id(),
            identity.device_id
        ));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let written = options.open(&staged).and_then(|mut file| {
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
        });
        if let Err(err) = written {
            let _ = std::fs::remove_file(&staged);
            return Err(format!("cannot write {}: {err}", staged.display()));
        }
        let linked = std::fs::hard_link(&staged, path);
        let _ = std::fs::remove_file(&staged);
        match linked {
            Ok(()) => {}
            // Another clawdeck created it first: use that one.
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                return match read_key_file(path) {
                    Ok(text) => Self::parse_stored(&text, path),
                    Err(KeyFileError::Missing) => Err(format!("{} vanished", path.display())),
                    Err(KeyFileError::Refused(why)) => Err(why),
                };
            }
            Err(err) => return Err(format!("cannot create {}: {err}", path.display())),
        }
        identity.path = Some(path.to_path_buf());
        Ok(identity)
    }

    /// SHA-256 hex of the raw public key (what `openclaw devices` lists).
    pub fn device_id(&self) -> &str {
        &self.device_id
    }

    /// Raw public key, unpadded base64url (the `device.publicKey` field).
    pub(crate) fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.key.verifying_key().to_bytes())
    }

    /// Where the key is kept, when it came from a file.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Signs the payload text; unpadded base64url (the `device.signature` field).
    pub(crate) fn sign(&self, payload: &AuthPayload<'_>) -> String {
        URL_SAFE_NO_PAD.encode(self.key.sign(payload.text().as_bytes()).to_bytes())
    }
}

/// Why the key file was not read.
enum KeyFileError {
    Missing,
    Refused(String),
}

/// The largest key file read (a real one is a few hundred bytes).
const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

/// The key file's text, when it is safe to trust: opened without following a link and without
/// waiting (`regular_file`), a regular file, owned by this user, and neither readable nor
/// writable by group or others (it is a private key: others could read it, or swap in theirs).
fn read_key_file(path: &Path) -> Result<String, KeyFileError> {
    use crate::regular_file::SecretFileError as E;
    let shown = path.display();
    let refused = |why: String| KeyFileError::Refused(format!("{shown}: {why}"));
    let move_away = "move it away and clawdeck creates a new device identity, which the \
                     gateway asks to pair again";
    crate::regular_file::read_secret(path, crate::regular_file::Links::Refuse, MAX_KEY_FILE_BYTES).map_err(|err| match err {
        E::Missing => KeyFileError::Missing,
        E::NotRegular(err) => refused(format!(
            "{err}; the device key must be a plain file: {move_away}"
        )),
        E::OtherOwner(uid) => refused(format!(
            "belongs to another user (uid {uid}), so it cannot be trusted as this user's device \
             key: {move_away}"
        )),
        E::OthersWrite(mode) => refused(format!(
            "group or others can write it (mode {mode:04o}), so anyone could have swapped the \
             device key; if it is yours, run `chmod 600 {shown}`, else {move_away}"
        )),
        E::OthersRead(mode) => refused(format!(
            "group or others can read it (mode {mode:04o}), and it holds clawdeck's private \
             device key; run `chmod 600 {shown}`. Others may have read it already: to be safe, \
             {move_away}"
        )),
        E::TooLarge(max) => refused(format!(
            "larger than {max} bytes, so not a device identity: {move_away}"
        )),
        E::NotUtf8 => refused(format!("not UTF-8 text: {move_away}")),
        E::Io(err) => refused(format!("cannot read: {err}")),
    })
}

fn device_id_for(public_key: &[u8; 32]) -> String {
    Sha256::digest(public_key)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signature, Verifier, VerifyingKey};

    fn payload<'a>(id: &'a str, scopes: &'a [String]) -> AuthPayload<'a> {
        AuthPayload {
            device_id: id,
            client_id: "cli",
            client_mode: "cli",
            role: "operator",
            scopes,
            signed_at_ms: 1737264000000,
            token: Some("tok"),
            nonce: "abc",
            platform: " Linux ",
            device_family: None,
        }
    }

    #[test]
    fn payload_text_is_openclaws_v3_line() {
        let scopes = vec!["operator.read".to_string(), "operator.write".to_string()];
        assert_eq!(
            payload("dev", &scopes).text(),
            "v3|dev|cli|cli|operator|operator.read,operator.write|1737264000000|tok|abc|linux|"
        );
    }

    #[test]
    fn signature_verifies_with_the_advertised_public_key() {
        let identity = DeviceIdentity::from_seed([7u8; 32]);
        let scopes = vec!["operator.read".to_string()];
        let p = payload(identity.device_id(), &scopes);
        let sig = URL_SAFE_NO_PAD
            .decode(identity.sign(&p))
            .unwrap_or_default();
        let public: [u8; 32] = URL_SAFE_NO_PAD
            .decode(identity.public_key())
            .unwrap_or_default()
            .try_into()
            .unwrap_or([0; 32]);
        let key = VerifyingKey::from_bytes(&public).map_err(|e| e.to_string());
        let sig = Signature::from_slice(&sig).map_err(|e| e.to_string());
        assert!(
            key.and_then(
                |k| sig.and_then(|s| k.verify(p.text().as_bytes(), &s).map_err(|e| e.to_string()))
            )
            .is_ok()
        );
        assert_eq!(identity.device_id().len(), 64);
    }

    #[test]
    fn key_is_created_once_with_owner_only_permissions() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let first = DeviceIdentity::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let again = DeviceIdentity::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first.device_id(), again.device_id());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(IDENTITY_FILE))
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
    }

    #[test]
    fn clawdecks_starting_together_share_one_complete_identity() {
        // The console and a headless command (or two tests) may create it at the same moment:
        // none may read a half-written file, and all must end with the same key.
        for _ in 0..20 {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let ids: Vec<String> = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..8)
                    .map(|_| {
                        scope.spawn(|| {
                            DeviceIdentity::load_or_create(dir.path())
                                .map(|i| i.device_id().to_string())
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .map(|w| {
                        w.join()
                            .unwrap_or_else(|_| Err("panicked".into()))
                            .unwrap_or_else(|e| panic!("{e}"))
                    })
                    .collect()
            });
            assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
            let left: Vec<_> = std::fs::read_dir(dir.path())
                .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
                .unwrap_or_default();
            assert_eq!(left.len(), 1, "no staged files left behind: {left:?}");
        }
    }

    /// The real writer (`create`, the first `load_or_create`) and the real reader (every later
    /// one) give the same key: same id, public key and signatures, and the file it names.
    #[test]
    fn a_stored_identity_reads_back_as_the_same_key() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let written = DeviceIdentity::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let read = DeviceIdentity::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.device_id(), written.device_id());
        assert_eq!(read.public_key(), written.public_key());
        let scopes = vec![
            "operator.read".to_string(),
            "operator.approvals".to_string(),
        ];
        let p = payload(written.device_id(), &scopes);
        assert_eq!(read.sign(&p), written.sign(&p));
        let path = dir.path().join(IDENTITY_FILE);
        assert_eq!(read.path(), Some(path.as_path()));
        assert_eq!(written.path(), Some(path.as_path()));
        // The public facts in the file are the key's.
        let stored: StoredIdentity =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}")))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored.version, 1);
        assert_eq!(stored.device_id, written.device_id());
        assert_eq!(stored.public_key, written.public_key());
    }

    /// A dir with a created identity; returns the dir and the key's path.
    fn created() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        DeviceIdentity::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(IDENTITY_FILE);
        (dir, path)
    }

    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn refusal(dir: &Path) -> String {
        DeviceIdentity::load_or_create(dir)
            .err()
            .unwrap_or_else(|| panic!("the key was used"))
    }

    #[test]
    fn a_key_others_can_write_or_read_is_refused_with_the_fix() {
        let (dir, path) = created();
        for (mode, words) in [
            (0o666, "can write it (mode 0666)"),
            (0o620, "can write it (mode 0620)"),
            (0o644, "can read it (mode 0644)"),
            (0o604, "can read it (mode 0604)"),
        ] {
            chmod(&path, mode);
            let err = refusal(dir.path());
            assert!(err.starts_with(&format!("{}: ", path.display())), "{err}");
            assert!(err.contains(words), "{err}");
            assert!(
                err.contains(&format!("`chmod 600 {}`", path.display())),
                "{err}"
            );
        }
        chmod(&path, 0o400);
        assert!(DeviceIdentity::load_or_create(dir.path()).is_ok());
    }

    #[test]
    fn a_link_fifo_or_dir_at_the_key_is_refused_at_once() {
        let (dir, path) = created();
        let elsewhere = dir.path().join("elsewhere.json");
        std::fs::rename(&path, &elsewhere).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(dir.path()).contains("a symbolic link"));
        std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{e}"));
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o600))
            .unwrap_or_else(|e| panic!("{e}"));
        // Would block in open() for good without O_NONBLOCK.
        assert!(refusal(dir.path()).contains("a FIFO, not a regular file"));
        std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(dir.path()).contains("a directory, not a regular file"));
    }

    #[test]
    fn the_state_dir_is_created_private_and_an_open_one_tightened() {
        use std::os::unix::fs::PermissionsExt;
        let base = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mode = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0)
        };
        let fresh = base.path().join("a/b/clawdeck");
        DeviceIdentity::load_or_create(&fresh).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&fresh), 0o700);
        assert_eq!(mode(&base.path().join("a")), 0o700);
        let open = base.path().join("open");
        std::fs::create_dir(&open).unwrap_or_else(|e| panic!("{e}"));
        chmod(&open, 0o775);
        DeviceIdentity::load_or_create(&open).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&open), 0o700);
    }

    #[test]
    fn tampered_identity_file_is_refused_with_its_path() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join(IDENTITY_FILE), "{}").unwrap_or_default();
        chmod(&dir.path().join(IDENTITY_FILE), 0o600);
        let err = DeviceIdentity::load_or_create(dir.path())
            .err()
            .unwrap_or_default();
        assert!(err.contains(IDENTITY_FILE), "{err}");
        assert!(err.contains("missing field"), "{err}");
    }
}
