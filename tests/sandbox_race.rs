//! The sandboxed file tools under attack from inside the workspace: a thread that swaps a workspace
//! directory for a symlink to the outside (plain renames, as `mv` does) while read, write, edit
//! and apply_patch run against it, and hardlinks to outside files planted in the workspace.

#![allow(clippy::unwrap_used)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clawdeck_core::local_tools::apply_patch::ApplyPatchTool;
use clawdeck_core::local_tools::edit::EditTool;
use clawdeck_core::local_tools::read::ReadTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::write::WriteTool;
use clawdeck_core::local_tools::{PathGuard, WorkspaceAccess};
use clawdeck_core::tool::{Tool, ToolCall, ToolError, ToolResult};
use serde_json::{Value, json};

/// How long each tool is raced (all four run at once).
const RACE_FOR: Duration = Duration::from_secs(10);

fn spec(name: &str) -> clawdeck_core::tool::ToolSpec {
    builtin_spec(name).unwrap()
}

fn call(
    rt: &tokio::runtime::Runtime,
    tool: &dyn Tool,
    params: Value,
) -> Result<ToolResult, ToolError> {
    rt.block_on(tool.execute(ToolCall::new("t", params)))
}

/// `ws/<name>` is a real directory holding `target.txt` ("inside"); `outer/out-<name>` holds
/// `target.txt` ("OUTSIDE"). The swapper renames `ws/<name>` away and renames a symlink to the
/// outside directory into its place, then back, as fast as it can.
struct Arena {
    root: PathBuf,
    outside: PathBuf,
}

fn arena(outer: &Path, root: &Path, name: &str) -> Arena {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("target.txt"), "inside-A\n").unwrap();
    let outside = outer.join(format!("out-{name}"));
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("target.txt"), "OUTSIDE-A\n").unwrap();
    Arena {
        root: root.to_path_buf(),
        outside,
    }
}

fn swap_until(stop: &AtomicBool, root: &Path, name: &str, outside: &Path) {
    let dir = root.join(name);
    let parked = root.join(format!("{name}.real"));
    let link_parked = root.join(format!("{name}.link"));
    symlink(outside, &link_parked).unwrap();
    while !stop.load(Ordering::Relaxed) {
        let _ = std::fs::rename(&dir, &parked);
        let _ = std::fs::rename(&link_parked, &dir);
        std::thread::yield_now();
        let _ = std::fs::rename(&dir, &link_parked);
        let _ = std::fs::rename(&parked, &dir);
        std::thread::yield_now();
    }
}

/// Files in `dir` other than `target.txt`, and whether `target.txt` still says "OUTSIDE-A".
fn outside_damage(outside: &Path) -> Vec<String> {
    let mut damage = Vec::new();
    for entry in std::fs::read_dir(outside).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name != "target.txt" {
            damage.push(format!("created {}", outside.join(&name).display()));
        }
    }
    let text = std::fs::read_to_string(outside.join("target.txt")).unwrap_or_default();
    if text != "OUTSIDE-A\n" {
        damage.push(format!("modified {}: {text:?}", outside.display()));
    }
    damage
}

/// Runs `attempt` (which returns true on an escape it can see itself) against a swapping
/// directory for `RACE_FOR`; returns (calls, escapes seen by the caller, damage outside).
fn race(
    name: &'static str,
    arena: Arena,
    attempt: impl Fn(&tokio::runtime::Runtime, u64) -> bool + Send + 'static,
) -> std::thread::JoinHandle<(u64, u64, Vec<String>)> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let stop = Arc::clone(&stop);
            let root = arena.root.clone();
            let outside = arena.outside.clone();
            std::thread::spawn(move || swap_until(&stop, &root, name, &outside))
        };
        let started = Instant::now();
        let (mut calls, mut escapes) = (0u64, 0u64);
        while started.elapsed() < RACE_FOR {
            if attempt(&rt, calls) {
                escapes += 1;
            }
            calls += 1;
        }
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        (calls, escapes, outside_damage(&arena.outside))
    })
}

#[test]
fn swapping_a_directory_for_a_symlink_never_lets_a_file_tool_out() {
    let dir = tempfile::tempdir().unwrap();
    let outer = std::fs::canonicalize(dir.path()).unwrap();
    let root = outer.join("ws");
    let guard = Arc::new(PathGuard::sandboxed(&root, WorkspaceAccess::Rw).unwrap());

    let read = ReadTool::new(spec("read"), Arc::clone(&guard));
    let reads = race("r", arena(&outer, &root, "r"), move |rt, _| {
        call(rt, &read, json!({"path": "r/target.txt"}))
            .is_ok_and(|r| r.joined_text().contains("OUTSIDE"))
    });
    let write = WriteTool::new(spec("write"), Arc::clone(&guard));
    let writes = race("w", arena(&outer, &root, "w"), move |rt, i| {
        let _ = call(
            rt,
            &write,
            json!({"path": format!("w/new-{i}.txt"), "content": "x"}),
        );
        let _ = call(
            rt,
            &write,
            json!({"path": "w/target.txt", "content": "inside-A\n"}),
        );
        false
    });
    let edit = EditTool::new(spec("edit"), Arc::clone(&guard));
    let edits = race("e", arena(&outer, &root, "e"), move |rt, i| {
        let (old, new) = if i % 2 == 0 {
            ("-A", "-B")
        } else {
            ("-B", "-A")
        };
        let _ = call(
            rt,
            &edit,
            json!({"path": "e/target.txt", "oldText": old, "newText": new}),
        );
        false
    });
    let patch = ApplyPatchTool::new(spec("apply_patch"), Arc::clone(&guard));
    let patches = race("p", arena(&outer, &root, "p"), move |rt, i| {
        let input = format!("*** Begin Patch\n*** Add File: p/add-{i}.txt\n+x\n*** End Patch");
        let _ = call(rt, &patch, json!({"input": input}));
        let input = "*** Begin Patch\n*** Update File: p/target.txt\n@@\n-inside-A\n+inside-A\n+more\n*** End Patch";
        let _ = call(rt, &patch, json!({"input": input}));
        false
    });

    let mut report = Vec::new();
    let mut total_escapes = 0;
    for (tool, handle) in [
        ("read", reads),
        ("write", writes),
        ("edit", edits),
        ("apply_patch", patches),
    ] {
        let (calls, escapes, damage) = handle.join().unwrap();
        assert!(calls > 50, "{tool}: only {calls} calls in {RACE_FOR:?}");
        total_escapes += escapes + damage.len() as u64;
        report.push(format!(
            "{tool}: {calls} calls, {escapes} escapes seen, damage {damage:?}"
        ));
    }
    assert_eq!(total_escapes, 0, "{report:#?}");
}

/// A hardlink to an outside file, already in the workspace: no tool may read or change the
/// outside inode through it.
#[test]
fn hardlinks_to_outside_files_are_refused_in_a_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let outer = std::fs::canonicalize(dir.path()).unwrap();
    let root = outer.join("ws");
    std::fs::create_dir_all(&root).unwrap();
    let secret = outer.join("secret.txt");
    std::fs::write(&secret, "SECRET-A\n").unwrap();
    std::fs::hard_link(&secret, root.join("link.txt")).unwrap();
    let guard = Arc::new(PathGuard::sandboxed(&root, WorkspaceAccess::Rw).unwrap());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();

    let read = ReadTool::new(spec("read"), Arc::clone(&guard));
    let err = call(&rt, &read, json!({"path": "link.txt"})).unwrap_err();
    assert!(err.to_string().contains("hard link"), "{err}");

    let edit = EditTool::new(spec("edit"), Arc::clone(&guard));
    let err = call(
        &rt,
        &edit,
        json!({"path": "link.txt", "oldText": "-A", "newText": "-B"}),
    )
    .unwrap_err();
    assert!(err.to_string().contains("hard link"), "{err}");

    let write = WriteTool::new(spec("write"), Arc::clone(&guard));
    let err = call(&rt, &write, json!({"path": "link.txt", "content": "owned"})).unwrap_err();
    assert!(err.to_string().contains("hard link"), "{err}");

    let patch = ApplyPatchTool::new(spec("apply_patch"), Arc::clone(&guard));
    let input =
        "*** Begin Patch\n*** Update File: link.txt\n@@\n-SECRET-A\n+SECRET-B\n*** End Patch";
    let err = call(&rt, &patch, json!({"input": input})).unwrap_err();
    assert!(err.to_string().contains("hard link"), "{err}");

    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "SECRET-A\n");
}

/// Writes replace the file (temp file + rename): a process holding the old inode open keeps
/// seeing the old contents, and the file's permission bits carry over.
#[test]
fn writes_replace_the_file_instead_of_truncating_it() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let file = root.join("f.sh");
    std::fs::write(&file, "old\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o750)).unwrap();
    let before = std::fs::metadata(&file).unwrap().ino();
    let guard = Arc::new(PathGuard::sandboxed(&root, WorkspaceAccess::Rw).unwrap());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let write = WriteTool::new(spec("write"), Arc::clone(&guard));
    call(&rt, &write, json!({"path": "f.sh", "content": "new\n"})).unwrap();
    let meta = std::fs::metadata(&file).unwrap();
    assert_ne!(meta.ino(), before, "the file was rewritten in place");
    assert_eq!(meta.mode() & 0o777, 0o750);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "new\n");
    let leftovers: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "temp files left behind: {leftovers:?}");
}
