//! Reading a config-like file (OpenClaw config, `clawdeck.json5`, plugin manifests) without
//! trusting what is at the path: only a regular file is read, never more than
//! `MAX_CONFIG_BYTES`, and opening never waits (a FIFO would block until a writer came): see
//! `crate::regular_file`.

use std::io::Read;
use std::path::Path;

use crate::regular_file::Links;

/// Largest config file read (16 MiB): far above any real config, far below trouble.
pub(crate) const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// The file's text, or a message saying why it cannot be a config file.
pub(crate) fn read_config_text(path: &Path) -> Result<String, String> {
    let file = crate::regular_file::open_read(path, Links::Follow).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "{} bytes is too large for a config file (at most {MAX_CONFIG_BYTES})",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(format!(
            "grew past {MAX_CONFIG_BYTES} bytes while being read"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let column = good.len() - good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1) + 1;
        format!("not UTF-8 text: invalid byte at line {line}, column {column}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_regular_files_and_bad_bytes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            read_config_text(dir.path())
                .unwrap_err()
                .contains("a directory")
        );
        assert!(
            read_config_text(Path::new("/dev/zero"))
                .unwrap_err()
                .contains("a character device")
        );
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        assert!(read_config_text(&fifo).unwrap_err().contains("a FIFO"));
        let bad = dir.path().join("bad");
        std::fs::write(&bad, b"{\n  a: \"\xff\" }").unwrap();
        assert_eq!(
            read_config_text(&bad).unwrap_err(),
            "not UTF-8 text: invalid byte at line 2, column 7"
        );
        let big = dir.path().join("big");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_CONFIG_BYTES + 1)
            .unwrap();
        assert!(read_config_text(&big).unwrap_err().contains("too large"));
    }
}
