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
    /// Stopped at `MAX_PAGES` with more to read.
    pub capped: bool,
}

impl SessionPages {
    /// As one `sessions.list` payload (what a roster snapshot reads), with the paging facts.
    pub fn to_payload(&self) -> Value {
        json!({
            "sessions": self.rows,
            "count": self.rows.len(),
            "totalCount": self.total,
            "pages": self.pages,
            "capped": self.capped,
        })
    }

    /// Adds one page; the offset of the next one, if any.
    pub fn add_page(&mut self, payload: &Value, seen: &mut HashSet<String>) -> Option<u64> {
        self.pages += 1;
        for row in payload
            .get("sessions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
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
}
