//! Everything the model's program started, so that nothing of it outlives the call.
//!
//! The program runs as the leader of a process group of its own, but a process it starts may
//! leave that group, and its session too (`setsid sleep 1000 &`): killing the group then leaves
//! it running. So [`Tree`] also keeps every process it has seen in the leader's group or session
//! ([`Tree::scan`], called while the program runs) and every descendant of one it has seen,
//! found by the parent links in `/proc`. A descendant that changes its session is seen through its
//! parent while the parent lives; one whose parent starts it and exits between two scans is seen
//! only if it stays in the group or the session.
//!
//! Each process is kept with its start time, so that a number the kernel gives again to an
//! unrelated process is never killed.

use std::cell::RefCell;
use std::collections::HashMap;

/// How often [`Tree::kill`] scans and kills again at most: a process forking as it is killed
/// leaves a child that the next round finds.
const KILL_ROUNDS: usize = 8;

/// The processes of one call of the model's program.
#[derive(Default)]
pub struct Tree {
    /// The program's pid, which is also its process group's id; `None` before it runs.
    leader: Option<i32>,
    /// Every process seen in the tree, with its start time (clock ticks after boot).
    seen: RefCell<HashMap<i32, u64>>,
}

/// One line of `/proc/PID/stat`: the fields the tree needs.
struct Stat {
    ppid: i32,
    group: i32,
    session: i32,
    zombie: bool,
    start: u64,
}

impl Tree {
    /// The tree of the program `leader`, which was started as its own process group's leader.
    pub fn of(leader: i32) -> Tree {
        let tree = Tree {
            leader: Some(leader),
            seen: RefCell::default(),
        };
        tree.scan();
        tree
    }

    /// Adds every process now in the leader's process group or session, and every descendant of
    /// a process seen (now or before).
    pub fn scan(&self) {
        self.scan_in(&processes());
    }

    /// [`Tree::scan`] over the processes `now`.
    fn scan_in(&self, now: &HashMap<i32, Stat>) {
        let Some(leader) = self.leader else { return };
        let mut seen = self.seen.borrow_mut();
        for (&pid, st) in now {
            if pid == leader || st.group == leader || st.session == leader {
                seen.insert(pid, st.start);
            }
        }
        // Descendants, to a fixed point: a parent counts only while it is the process seen (the
        // same start time), not another that got its number.
        loop {
            let before = seen.len();
            for (&pid, st) in now {
                let parent_seen = now
                    .get(&st.ppid)
                    .is_some_and(|p| seen.get(&st.ppid) == Some(&p.start));
                if parent_seen && !seen.contains_key(&pid) {
                    seen.insert(pid, st.start);
                }
            }
            if seen.len() == before {
                break;
            }
        }
    }

    /// Kills the whole tree with SIGKILL: every process seen that is still alive and still the
    /// same process, and its process group at once while the group is there, scanning again
    /// after each round so that what they started meanwhile goes too. The group is signalled
    /// only while a process seen is in it: its number is not given to another group before the
    /// last member is gone, whereas after that it may be.
    pub fn kill(self) {
        let Some(leader) = self.leader else { return };
        let me = std::process::id() as i32;
        for _ in 0..KILL_ROUNDS {
            let now = processes();
            self.scan_in(&now);
            let seen = self.seen.borrow();
            let alive: Vec<(i32, &Stat)> = now
                .iter()
                .filter(|&(pid, st)| *pid != me && !st.zombie && seen.get(pid) == Some(&st.start))
                .map(|(&pid, st)| (pid, st))
                .collect();
            if alive.is_empty() {
                return;
            }
            if alive.iter().any(|(_, st)| st.group == leader) {
                signal(-leader);
            }
            alive.into_iter().for_each(|(pid, _)| signal(pid));
        }
    }
}

/// Sends SIGKILL to `pid` (a process group when negative). Never to 0 or -1, which would mean
/// this process's group or every process.
fn signal(pid: i32) {
    if pid != 0 && pid != -1 {
        // SAFETY: kill(2) takes no memory of ours; a process already gone is an error ignored.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Every process now running, from `/proc` (empty where there is no `/proc`: the process group
/// is then all that is killed).
fn processes() -> HashMap<i32, Stat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            Some((
                pid,
                stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)?,
            ))
        })
        .collect()
}

/// Reads `pid (comm) state ppid pgrp session ... starttime ...` (proc(5)); the command name may
/// hold spaces and parentheses, so the fields are counted from its last `)`.
fn stat(line: &str) -> Option<Stat> {
    let rest: Vec<&str> = line[line.rfind(')')? + 1..].split_whitespace().collect();
    // Fields 3 (state), 4, 5, 6 and 22 of proc(5), numbered from 1 with pid and comm first.
    let field = |n: usize| rest.get(n - 3).copied();
    Some(Stat {
        zombie: field(3)? == "Z",
        ppid: field(4)?.parse().ok()?,
        group: field(5)?.parse().ok()?,
        session: field(6)?.parse().ok()?,
        start: field(22)?.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_past_a_command_name_with_spaces_and_parentheses() {
        let line = "4242 (a (b) c) S 1 4240 4239 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        let st = stat(line).unwrap();
        assert_eq!(
            (st.ppid, st.group, st.session, st.start, st.zombie),
            (1, 4240, 4239, 987654, false)
        );
        assert!(stat("4242 (x) Z 1").is_none(), "too short");
    }
}
