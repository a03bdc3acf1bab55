// scratch probe, not committed
#![allow(clippy::all)]
use clawdeck_gateway::*;
use serde_json::json;
use std::time::Duration;
#[tokio::main]
async fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (url, key, msg, abort_after) = (&a[1], &a[2], &a[3], a.get(4).and_then(|s| s.parse::<u64>().ok()));
    let ep = GatewayEndpoint { name: "p".into(), url: endpoint::websocket_url(url).unwrap(), auth: GatewayAuth::Token("tok".into()), origin: "t".into() };
    let id = DeviceIdentity::load_or_create(std::path::Path::new("/tmp/chatgw/state/clawdeck")).unwrap();
    let c = GatewayClient::connect(ep, id, clawdeck_gateway::desk::approver_options(), Backoff::default()).await.unwrap();
    let h = c.hello();
    eprintln!("methods with chat/sessions: {:?}", h.methods.iter().filter(|m| m.starts_with("chat") || m.starts_with("sessions.")).collect::<Vec<_>>());
    eprintln!("events: {:?}", h.events);
    let mut ev = c.events();
    if std::env::var("SUB").is_ok() { eprintln!("sub {:?}", c.subscribe("sessions.messages.subscribe", json!({"key": key})).await.map(|_|())); }
    let r = c.request("chat.send", json!({"sessionKey": key, "message": msg, "idempotencyKey": format!("probe-{}", std::process::id())})).await;
    eprintln!("send -> {r:?}");
    let t0 = std::time::Instant::now();
    let mut aborted = false;
    loop {
        if let Some(s) = abort_after { if !aborted && t0.elapsed() > Duration::from_secs(s) { aborted = true; let r = c.request("sessions.abort", json!({"key": key})).await; eprintln!("{:?} ABORT -> {r:?}", t0.elapsed()); } }
        match tokio::time::timeout(Duration::from_millis(500), ev.recv()).await {
            Ok(Some(ClientEvent::Event(f))) => { if f.event == "tick" || f.event=="health" {continue;} let s = f.payload.to_string(); println!("{:?} {} {}", t0.elapsed(), f.event, &s[..s.len().min(600)]); }
            Ok(Some(o)) => println!("{o:?}"),
            Ok(None) => break,
            Err(_) => { if t0.elapsed() > Duration::from_secs(90) { break; } }
        }
    }
}
