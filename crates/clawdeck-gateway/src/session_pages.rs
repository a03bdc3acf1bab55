//! Every session of a gateway: `sessions.list` pages (`limit` / `offset`), following
//! `nextOffset` while `hasMore` is true (OpenClaw docs: gateway/protocol/
//! rpc-bootstrap-and-events.md), rows deduplicated by key (a page may repeat a row that moved).
//! Bounded: at most `MAX_PAGES` pages, and the answer says when it stopped there. Needs
//! `operator.read`.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::client::GatewayClient;
use super::error::GatewayError;

/// Rows asked for per page (the gateway's default page is 100).
pub const PAGE_SIZE: u64 = 100;
/// Pages read at most (so 5,000 sessions): a gateway that keeps saying `hasMore` ends here.
pub const MAX_PAGES: usize = 50;

/// Every row read, in the gateway's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionPages {
    pub rows: Vec<Value>,
    pub pages: usize,
    /// Sessions the gateway says it has (`totalCount` of the last page).
    pub total: Option<u64>,
    /// Stopped at `MAX_PAGES` (or `MAX_ROWS`) with more to read.
    pub capped: bool,
    /// Rows a page carried past the `PAGE_SIZE` asked for, or past `MAX_ROWS`: not kept.
    pub left_out: u64,
}

/// Rows kept at most (what `MAX_PAGES` pages of `PAGE_SIZE` hold).
pub const MAX_ROWS: usize = PAGE_SIZE as usize * MAX_PAGES;

impl SessionPages {
    /// As one `sessions.list` payload (what a roster snapshot reads), with the paging facts.
    pub fn to_payload(&self) -> Value {
        json!({
            "sessions": self.rows,
            "count": self.rows.len(),
            "totalCount": self.total,
            "pages": self.pages,
            "capped": self.capped,
            "leftOut": self.left_out,
        })
    }

    /// Adds one page; the offset of the next one, if any.
    pub fn add_page(&mut self, payload: &Value, seen: &mut HashSet<String>) -> Option<u64> {
        self.pages += 1;
        let page = payload
            .get("sessions")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        // A page holds at most what was asked for, and all pages at most MAX_ROWS.
        let room = MAX_ROWS.saturating_sub(self.rows.len());
        let kept = page.len().min(PAGE_SIZE as usize).min(room);
        self.left_out += (page.len() - kept) as u64;
        if kept < page.len() && kept == room {
            self.capped = true;
        }
        for row in &page[..kept] {
            let key = row.get("key").and_then(Value::as_str).unwrap_or("");
            if key.is_empty() || seen.insert(key.to_string()) {
                self.rows.push(row.clone());
            }
        }
        self.total = payload
            .get("totalCount")
            .and_then(Value::as_u64)
            .or(self.total);
        let more = payload
            .get("hasMore")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if self.rows.len() >= MAX_ROWS {
            self.capped |= more;
            return None;
        }
        more.then(|| payload.get("nextOffset").and_then(Value::as_u64))
            .flatten()
    }
}

/// Reads every page of `sessions.list` with `params` (filters; `limit` / `offset` are set here).
pub async fn list_all_sessions(
    client: &GatewayClient,
    params: &Value,
) -> Result<SessionPages, GatewayError> {
    let mut pages = SessionPages::default();
    let mut seen = HashSet::new();
    let mut offset = 0u64;
    loop {
        let mut page_params = params.clone();
        if !page_params.is_object() {
            page_params = json!({});
        }
        page_params["limit"] = json!(PAGE_SIZE);
        if offset > 0 {
            page_params["offset"] = json!(offset);
        }
        let payload = client.request("sessions.list", page_params).await?;
        let next = pages.add_page(&payload, &mut seen);
        match next {
            // A gateway whose next offset does not advance would loop: stop.
            Some(next) if next > offset => {
                if pages.pages >= MAX_PAGES {
                    pages.capped = true;
                    return Ok(pages);
                }
                offset = next;
            }
            _ => return Ok(pages),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn pages_add_up_without_repeating_a_row() {
        let mut pages = SessionPages::default();
        let mut seen = HashSet::new();
        let first = json!({"sessions": [{"key": "a"}, {"key": "b"}], "hasMore": true,
            "nextOffset": 2, "totalCount": 3});
        assert_eq!(pages.add_page(&first, &mut seen), Some(2));
        // The row `b` moved down a place between the pages.
        let last = json!({"sessions": [{"key": "b"}, {"key": "c"}], "hasMore": false,
            "nextOffset": null, "totalCount": 3});
        assert_eq!(pages.add_page(&last, &mut seen), None);
        let keys: Vec<&str> = pages
            .rows
            .iter()
            .map(|r| r["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(pages.to_payload()["totalCount"], 3);
        assert_eq!(pages.pages, 2);
    }

    #[test]
    fn a_page_past_its_limit_is_cut_and_counted_and_rows_stop_at_the_cap() {
        let mut pages = SessionPages::default();
        let mut seen = HashSet::new();
        let page = |p: usize, n: usize| {
            let rows: Vec<Value> = (0..n)
                .map(|i| json!({"key": format!("k{p}-{i}")}))
                .collect();
            json!({"sessions": rows, "hasMore": true, "nextOffset": (p + 1) * n})
        };
        // A gateway that ignores `limit`: 20,000 rows in one page.
        assert_eq!(pages.add_page(&page(0, 20_000), &mut seen), Some(20_000));
        assert_eq!(pages.rows.len(), PAGE_SIZE as usize);
        assert_eq!(pages.left_out, 20_000 - PAGE_SIZE);
        let mut p = 1;
        while pages.add_page(&page(p, 150), &mut seen).is_some() {
            p += 1;
            assert!(p < 100, "the pages never stop");
        }
        assert_eq!(pages.rows.len(), MAX_ROWS);
        assert!(pages.capped);
        assert_eq!(pages.to_payload()["leftOut"], json!(pages.left_out));
    }
}
