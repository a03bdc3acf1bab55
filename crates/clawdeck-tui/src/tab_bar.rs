//! The tab bar's layout: every view's tab with its key, as much of each label as the width
//! allows, the active tab always whole. Narrower terminals get, in turn: short labels for the
//! other tabs (` 2 Que `, then `2 Que`), keys alone (`2`), and at last a window around the active tab with `«`
//! / `»` where tabs are left out. The brand (`clawdeck`) goes first when room is short.

use unicode_width::UnicodeWidthStr;

use super::view_id::ViewId;

/// One tab as drawn: its view, its text (padding included) and its column from the left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tab {
    pub(crate) view: ViewId,
    pub(crate) label: String,
    pub(crate) x: u16,
}

/// The bar's layout within `width` columns.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct TabLayout {
    pub(crate) brand: bool,
    pub(crate) tabs: Vec<Tab>,
    /// Tabs left out before the first drawn one / after the last (`«` / `»` marks them).
    pub(crate) more_left: bool,
    pub(crate) more_right: bool,
    /// Columns used, from the left.
    pub(crate) used: u16,
}

pub(crate) const BRAND: &str = "clawdeck ";

/// How much of the inactive tabs' labels shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Labels {
    Full,
    Short,
    /// Short, without the padding (`2 Que`).
    ShortBare,
    /// The key alone (`2`).
    KeyBare,
}

/// A tab's text; `badge` (the Approvals tab's `⚠2`) stays at every width.
fn label(key: &str, view: ViewId, labels: Labels, badge: &str) -> String {
    let short = || view.title().chars().take(3).collect::<String>();
    match labels {
        Labels::Full => format!(" {key} {}{badge} ", view.title()),
        Labels::Short => format!(" {key} {}{badge} ", short()),
        Labels::ShortBare => format!("{key} {}{badge}", short()),
        Labels::KeyBare => format!("{key}{badge}"),
    }
}

/// The badge a tab carries: ` ⚠2` on Approvals while 2 approvals wait; empty otherwise.
pub(crate) fn approvals_tab_badge(view: ViewId, waiting: usize) -> String {
    if view == ViewId::Approvals && waiting > 0 {
        format!(" ⚠{waiting}")
    } else {
        String::new()
    }
}

fn width(text: &str) -> u16 {
    UnicodeWidthStr::width(text) as u16
}

/// Lays the tabs out in `room` columns; `key` names each view's key.
#[cfg(test)]
pub(crate) fn layout(active: ViewId, room: u16, key: impl Fn(ViewId) -> String) -> TabLayout {
    layout_badged(active, room, key, |_| String::new())
}

/// As `layout`, each tab with its badge (`badge` names it per view).
pub(crate) fn layout_badged(
    active: ViewId,
    room: u16,
    key: impl Fn(ViewId) -> String,
    badge: impl Fn(ViewId) -> String,
) -> TabLayout {
    let labels_for = |labels: Labels| -> Vec<(ViewId, String)> {
        ViewId::ALL
            .iter()
            .map(|&v| {
                let l = if v == active { Labels::Full } else { labels };
                (v, label(&key(v), v, l, &badge(v)))
            })
            .collect()
    };
    let total =
        |tabs: &[(ViewId, String)]| -> u16 { tabs.iter().map(|(_, l)| width(l) + 1).sum::<u16>() };
    for (brand, labels) in [
        (true, Labels::Full),
        (true, Labels::Short),
        (false, Labels::Short),
        (false, Labels::ShortBare),
        (false, Labels::KeyBare),
    ] {
        let tabs = labels_for(labels);
        let start = if brand { width(BRAND) } else { 0 };
        if start + total(&tabs) <= room + 1 {
            return place(brand, start, tabs, false, false);
        }
    }
    window(active, room, labels_for(Labels::KeyBare))
}

/// The tabs from column `start`, one column apart.
fn place(
    brand: bool,
    start: u16,
    tabs: Vec<(ViewId, String)>,
    more_left: bool,
    more_right: bool,
) -> TabLayout {
    let mut x = start;
    let mut placed = Vec::new();
    for (view, label) in tabs {
        let w = width(&label);
        placed.push(Tab { view, label, x });
        x += w + 1;
    }
    TabLayout {
        brand,
        tabs: placed,
        more_left,
        more_right,
        used: x.saturating_sub(1),
    }
}

/// The active tab and as many neighbours as fit, with room kept for the marks.
fn window(active: ViewId, room: u16, tabs: Vec<(ViewId, String)>) -> TabLayout {
    let at = active.index();
    let cost = |i: usize| width(&tabs[i].1) + 1;
    let (mut first, mut last) = (at, at);
    let mut used = cost(at);
    // Two columns for `« ` and two for ` »`, whichever are needed.
    let fits = |used: u16, first: usize, last: usize| {
        let marks = if first > 0 { 2 } else { 0 } + if last + 1 < tabs.len() { 2 } else { 0 };
        used + marks <= room + 1
    };
    loop {
        let mut grew = false;
        if last + 1 < tabs.len() && fits(used + cost(last + 1), first, last + 1) {
            last += 1;
            used += cost(last);
            grew = true;
        }
        if first > 0 && fits(used + cost(first - 1), first - 1, last) {
            first -= 1;
            used += cost(first);
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let more_left = first > 0;
    let more_right = last + 1 < tabs.len();
    let start = if more_left { 2 } else { 0 };
    let kept: Vec<(ViewId, String)> = tabs
        .into_iter()
        .skip(first)
        .take(last - first + 1)
        .collect();
    let mut layout = place(false, start, kept, more_left, more_right);
    if more_right {
        layout.used += 2;
    }
    layout
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: ViewId) -> String {
        match v {
            ViewId::Gateways => "O".to_string(),
            _ => ((v.index() + 1) % 10).to_string(),
        }
    }

    fn text(l: &TabLayout) -> String {
        let mut out = String::new();
        if l.brand {
            out.push_str(BRAND);
        }
        if l.more_left {
            out.push_str("« ");
        }
        for t in &l.tabs {
            out.push_str(&t.label);
            out.push(' ');
        }
        if l.more_right {
            out.push('»');
        }
        out.trim_end().to_string()
    }

    #[test]
    fn every_tab_shows_whole_when_there_is_room() {
        let l = layout(ViewId::Policy, 160, keys);
        assert!(l.brand && l.tabs.len() == ViewId::ALL.len());
        assert!(text(&l).contains(" 0 Diff"));
    }

    #[test]
    fn narrower_bars_shorten_the_other_tabs_and_keep_the_active_one_whole() {
        for (room, active) in [
            (120, ViewId::Diff),
            (80, ViewId::Sessions),
            (66, ViewId::Policy),
            (60, ViewId::Lint),
            (39, ViewId::Approvals),
            (30, ViewId::Decisions),
        ] {
            let l = layout(active, room, keys);
            let t = text(&l);
            assert!(l.used <= room, "{room}: {t} is {} wide", l.used);
            let tab = l
                .tabs
                .iter()
                .find(|t| t.view == active)
                .expect("active tab");
            assert!(tab.label.contains(active.title()), "{room}: {t}");
            if room >= 39 {
                assert_eq!(l.tabs.len(), ViewId::ALL.len(), "{room}: every tab: {t}");
            }
        }
        assert_eq!(
            text(&layout(ViewId::Policy, 120, keys)),
            "clawdeck  1 Policy   2 Que   3 Rou   4 Inv   5 Pro   6 Dec   7 Ses   8 App   9 Lin   0 Dif   O Gat"
        );
        assert_eq!(
            text(&layout(ViewId::Policy, 80, keys)),
            " 1 Policy  2 Que 3 Rou 4 Inv 5 Pro 6 Dec 7 Ses 8 App 9 Lin 0 Dif O Gat"
        );
        assert_eq!(
            text(&layout(ViewId::Router, 39, keys)),
            "1 2  3 Router  4 5 6 7 8 9 0 O"
        );
    }

    #[test]
    fn a_very_narrow_bar_is_a_window_around_the_active_tab_with_marks() {
        let l = layout(ViewId::Sessions, 16, keys);
        let t = text(&l);
        assert!(l.more_left && l.more_right, "{t}");
        assert!(t.contains("7 Sessions"), "{t}");
        assert!(l.used <= 16, "{t}");
    }

    #[test]
    fn the_approvals_tab_carries_the_waiting_count_at_every_width() {
        let badge = |v| approvals_tab_badge(v, 2);
        for room in [160, 80, 39] {
            let l = layout_badged(ViewId::Policy, room, keys, badge);
            let tab = l
                .tabs
                .iter()
                .find(|t| t.view == ViewId::Approvals)
                .expect("the Approvals tab");
            assert!(tab.label.contains("⚠2"), "{room}: {}", text(&l));
            assert!(l.used <= room, "{room}: {}", text(&l));
        }
        assert_eq!(approvals_tab_badge(ViewId::Approvals, 0), "");
        assert_eq!(approvals_tab_badge(ViewId::Queue, 3), "");
    }
}
