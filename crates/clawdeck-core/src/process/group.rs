//! Signals to a process group, with the guards that keep them from hitting the wrong target.

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// The name of a signal number (`SIGTERM`), or `SIG<n>` for numbers nix does not know.
pub fn signal_name(number: i32) -> String {
    match Signal::try_from(number) {
        Ok(signal) => signal.as_str().to_string(),
        Err(_) => format!("SIG{number}"),
    }
}

/// Send `signal` to the group `pgid`. Refuses pgid 0 and 1 (0 would be our own group, 1 init's)
/// and negative values. ESRCH (the group is gone) counts as success: there is nothing to kill.
pub(crate) fn signal_group(pgid: i32, signal: Signal) -> Result<(), Errno> {
    if pgid <= 1 {
        return Err(Errno::EINVAL);
    }
    match killpg(Pid::from_raw(pgid), signal) {
        Ok(()) | Err(Errno::ESRCH) => Ok(()),
        Err(err) => Err(err),
    }
}

/// True while the group has members (zombies included).
pub(crate) fn group_exists(pgid: i32) -> bool {
    if pgid <= 1 {
        return false;
    }
    !matches!(killpg(Pid::from_raw(pgid), None), Err(Errno::ESRCH))
}

/// True while the group has a member that is not a zombie. Zombies count as gone: they run
/// nothing, and where PID 1 does not reap orphans (some containers) they would linger forever.
/// Falls back to [`group_exists`] when /proc cannot be read.
pub fn group_has_live_members(pgid: i32) -> bool {
    if !group_exists(pgid) {
        return false;
    }
    match live_members_from_proc(pgid) {
        Some(members) => !members.is_empty(),
        None => true,
    }
}

/// Pids of the non-zombie members of group `pgid`, from /proc. None when /proc is unreadable.
pub fn live_members_from_proc(pgid: i32) -> Option<Vec<i32>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let mut members = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|name| name.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((state, _ppid, pgrp)) = parse_stat(&stat)
            && pgrp == pgid
            && state != 'Z'
            && state != 'X'
        {
            members.push(pid);
        }
    }
    Some(members)
}

/// (state, ppid, pgrp) from a /proc/<pid>/stat line; the command name may contain spaces and
/// parentheses, so fields are counted from the last `)`.
pub fn parse_stat(stat: &str) -> Option<(char, i32, i32)> {
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, ppid, pgrp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_known_and_unknown_signals() {
        assert_eq!(signal_name(15), "SIGTERM");
        assert_eq!(signal_name(9), "SIGKILL");
        assert_eq!(signal_name(200), "SIG200");
    }

    #[test]
    fn never_signals_group_zero_or_one() {
        assert_eq!(signal_group(0, Signal::SIGTERM), Err(Errno::EINVAL));
        assert_eq!(signal_group(1, Signal::SIGTERM), Err(Errno::EINVAL));
        assert_eq!(signal_group(-5, Signal::SIGTERM), Err(Errno::EINVAL));
        assert!(!group_exists(0));
    }

    #[test]
    fn parses_stat_with_odd_command_names() {
        let stat = "123 (a) b (c)) S 1 456 456 0 -1 4194560";
        assert_eq!(parse_stat(stat), Some(('S', 1, 456)));
    }
}
