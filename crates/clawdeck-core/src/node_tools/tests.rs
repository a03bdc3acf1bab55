use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::catalog::Registry;
use crate::config::load_from_str_with_pack;
use crate::context::PolicyContext;
use crate::mcp_servers::ServerListing;

/// A descriptor as the gateway keeps one a node host's MCP server published.
fn mcp_tool(name: &str, server: &str, tool: &str) -> Value {
    json!({
        "pluginId": "node-mcp",
        "name": name,
        "description": format!("Does {tool}."),
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        "command": "mcp.tools.call.v1",
        "mcp": {"server": server, "tool": tool}
    })
}

fn node(id: &str, display: &str, tools: Vec<Value>) -> Value {
    json!({"nodeId": id, "displayName": display, "connected": true, "nodePluginTools": tools})
}

fn answer(nodes: Vec<Value>) -> ConnectedNodes {
    parse_node_list(&json!({"ts": 1, "nodes": nodes}), "node.list").unwrap()
}

fn lower(name: &str) -> String {
    name.to_lowercase()
}

fn names(specs: &[ToolSpec]) -> Vec<&str> {
    specs.iter().map(|s| s.name.as_str()).collect()
}

const NODE_A: &str = "198a47bdbedcd11bb011bbed921f77c84a44ed5ac9ecbec6da7560fc51dc0e2d";
const NODE_B: &str = "e3f1c0de";

#[test]
fn a_tool_published_once_keeps_its_name_and_names_its_node() {
    let nodes = answer(vec![node(
        NODE_A,
        "labnode",
        vec![mcp_tool("docs_search", "docs", "search")],
    )]);
    let specs = tool_specs(&nodes, &HashSet::new(), &lower);
    assert_eq!(names(&specs), ["docs_search"]);
    assert_eq!(specs[0].description, "Does search. (node: labnode)");
    assert_eq!(specs[0].source.plugin_id(), Some(NODE_MCP));
    assert_eq!(specs[0].source.node().map(|n| n.id.as_str()), Some(NODE_A));
    assert!(specs[0].source.is_mcp(), "found through Tool Search only");
    assert_eq!(specs[0].parameters["required"], json!(["q"]));
}

#[test]
fn a_name_two_nodes_publish_gets_each_nodes_fragment() {
    let nodes = answer(vec![
        node(NODE_A, "a", vec![mcp_tool("docs_search", "docs", "search")]),
        node(NODE_B, "b", vec![mcp_tool("docs_search", "docs", "search")]),
    ]);
    let specs = tool_specs(&nodes, &HashSet::new(), &lower);
    // A fragment must start with a letter: the hex id that starts with a digit gets `node_`,
    // and the whole fragment is cut to 32 characters.
    assert_eq!(
        names(&specs),
        [
            "node_198a47bdbedcd11bb011bbed921_docs_search",
            "e3f1c0de_docs_search"
        ]
    );
}

#[test]
fn a_name_already_taken_gets_the_fragment_and_a_second_clash_a_number() {
    let taken: HashSet<String> = ["read", "labbox_read"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let nodes = answer(vec![node(
        "LabBox",
        "",
        vec![mcp_tool("Read", "fs", "read")],
    )]);
    let specs = tool_specs(&nodes, &taken, &lower);
    assert_eq!(names(&specs), ["labbox_Read_2"]);
    // No display name: the node's id names it.
    assert!(specs[0].description.ends_with("(node: LabBox)"));
}

#[test]
fn a_long_name_is_cut_so_that_fragment_and_name_fit_64_characters() {
    let long = format!("t{}", "x".repeat(63));
    let nodes = answer(vec![
        node("alpha", "", vec![mcp_tool(&long, "s", "t")]),
        node("beta", "", vec![mcp_tool(&long, "s", "t")]),
    ]);
    let specs = tool_specs(&nodes, &HashSet::new(), &lower);
    assert!(specs.iter().all(|s| s.name.len() == 64), "{specs:?}");
    assert!(specs[0].name.starts_with("alpha_txx"));
}

#[test]
fn node_fragments_follow_openclaw() {
    assert_eq!(node_fragment("  "), "node");
    assert_eq!(node_fragment("--Mac Studio--"), "mac_studio");
    assert_eq!(node_fragment("a_-b"), "a__b");
    assert_eq!(node_fragment("42"), "node_42");
}

#[test]
fn bad_descriptors_are_left_out_naming_their_place() {
    let nodes = answer(vec![node(
        "n1",
        "n",
        vec![
            json!({"pluginId": "node-mcp", "name": "9lives", "description": "d", "command": "c"}),
            json!({"pluginId": "node-mcp", "name": "ok", "command": "c"}),
            json!("not an object"),
            json!({"pluginId": "p", "name": "fine", "description": "d", "parameters": [1]}),
        ],
    )]);
    assert_eq!(nodes.nodes[0].tools.len(), 1);
    // A descriptor without an object schema gets the open one OpenClaw gives it.
    assert_eq!(
        nodes.nodes[0].tools[0].parameters["additionalProperties"],
        json!(true)
    );
    let warnings = nodes.warnings.join("\n");
    assert!(warnings.contains("node.list: nodes[0].nodePluginTools[0]: the name \"9lives\""));
    assert!(warnings.contains("nodePluginTools[1]: no description; left out"));
    assert!(warnings.contains("nodePluginTools[2]: no pluginId; left out"));
}

#[test]
fn lists_from_outside_are_bounded_and_say_what_they_left_out() {
    let many: Vec<Value> = (0..200)
        .map(|i| mcp_tool(&format!("t{i}"), "s", "t"))
        .collect();
    let nodes = answer(vec![node("n1", "n", many)]);
    assert_eq!(nodes.nodes[0].tools.len(), MAX_TOOLS_PER_NODE);
    assert!(nodes.warnings[0].contains("200 tools published"));
    let crowd: Vec<Value> = (0..MAX_NODES + 3)
        .map(|i| node(&format!("n{i}"), "", vec![]))
        .collect();
    let nodes = answer(crowd);
    assert_eq!(nodes.nodes.len(), MAX_NODES);
    assert!(nodes.warnings[0].contains("the 3 after the first 256"));
}

#[test]
fn disconnected_nodes_and_non_answers() {
    let mut gone = node("n1", "n", vec![mcp_tool("a", "s", "a")]);
    gone["connected"] = json!(false);
    assert!(answer(vec![gone]).nodes.is_empty());
    let err = parse_node_list(&json!({"ok": true}), "saved.json").unwrap_err();
    assert_eq!(err, "saved.json: not a node.list answer: no `nodes` list");
    // A gateway response frame's payload is read as the answer.
    let framed = json!({"payload": {"nodes": [node("n1", "n", vec![mcp_tool("a", "s", "a")])]}});
    assert_eq!(parse_node_list(&framed, "f").unwrap().tool_count(), 1);
}

fn registry_for(config: &str, nodes: ConnectedNodes) -> (crate::config::LoadedConfig, Registry) {
    let mut cfg = load_from_str_with_pack(config, "test.json5", "2026.9").unwrap();
    cfg.connected_nodes = Some(Arc::new(nodes));
    let registry = Registry::build(&cfg, &ServerListing::Off);
    (cfg, registry)
}

fn visible(config: &str, nodes: ConnectedNodes) -> Vec<String> {
    let (cfg, registry) = registry_for(config, nodes);
    let res = crate::policy::resolve(&cfg, &registry, &PolicyContext::default()).unwrap();
    res.visible_names()
        .into_iter()
        .filter(|n| n.starts_with("docs_"))
        .map(str::to_string)
        .collect()
}

fn docs_node() -> ConnectedNodes {
    answer(vec![node(
        NODE_A,
        "labnode",
        vec![
            mcp_tool("docs_read_doc", "docs", "read_doc"),
            mcp_tool("docs_search", "docs", "search"),
        ],
    )])
}

#[test]
fn the_policy_treats_node_tools_as_plugin_node_mcp() {
    assert_eq!(visible("{}", docs_node()), ["docs_read_doc", "docs_search"]);
    // Not named by an allowlist: not built.
    assert!(visible("{tools: {allow: ['read']}}", docs_node()).is_empty());
    // The plugin id selects them all, a name one.
    assert_eq!(
        visible("{tools: {allow: ['read', 'node-mcp']}}", docs_node()),
        ["docs_read_doc", "docs_search"]
    );
    assert_eq!(
        visible("{tools: {allow: ['read', 'docs_search']}}", docs_node()),
        ["docs_search"]
    );
    assert_eq!(
        visible("{tools: {deny: ['node-mcp']}}", docs_node()),
        Vec::<String>::new()
    );
    // Plugins switched off: a node's tools still come (no plugin of this gateway loads them).
    assert_eq!(
        visible("{plugins: {enabled: false}}", docs_node()),
        ["docs_read_doc", "docs_search"]
    );
}

#[test]
fn a_gateway_that_ignores_node_tools_builds_none_and_says_so() {
    let (_, registry) = registry_for(
        "{gateway: {nodes: {pluginTools: {enabled: false}}}}",
        docs_node(),
    );
    assert!(registry.get("docs_search").is_none());
    assert!(
        registry.warnings.iter().any(|w| w.contains(
            "enabled is false: the 2 tools the nodes of node.list published are ignored"
        )),
        "{:?}",
        registry.warnings
    );
}

#[test]
fn a_node_tool_named_like_a_core_tool_is_renamed() {
    let nodes = answer(vec![node(
        NODE_B,
        "b",
        vec![mcp_tool("read", "fs", "read")],
    )]);
    let (_, registry) = registry_for("{}", nodes);
    assert!(registry.get("e3f1c0de_read").is_some());
    assert_eq!(
        registry.get("read").and_then(|s| s.source.node()),
        None,
        "the core read stays"
    );
}

#[test]
fn explain_says_which_node_published_a_tool() {
    let (cfg, registry) = registry_for("{}", docs_node());
    let res = crate::policy::resolve(&cfg, &registry, &PolicyContext::default()).unwrap();
    let trace = res.tools.iter().find(|t| t.name == "docs_search").unwrap();
    assert_eq!(
        trace.built_because.as_deref(),
        Some(
            format!(
                "node labnode published it from its MCP server docs (node.list, node {NODE_A})"
            )
            .as_str()
        )
    );
    let core = res.tools.iter().find(|t| t.name == "read").unwrap();
    assert_eq!(core.built_because, None);
}

/// The lab's runs have no paired node: their tools are left out of a comparison with one, with
/// a note; a gateway's own list (which has them) is compared with them.
#[test]
fn a_lab_run_leaves_node_tools_out_a_gateways_list_keeps_them() {
    use crate::comparison::{ObservedView, compare_view, predict};
    let config = "{tools: {toolSearch: {enabled: false}}}";
    let (cfg, registry) = registry_for(config, docs_node());
    let view = predict(&cfg, &registry, &PolicyContext::default()).unwrap();
    let without_nodes: Vec<Value> = view
        .export
        .payload
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !t["function"]["name"].as_str().unwrap().starts_with("docs_"))
        .cloned()
        .collect();
    let lab = ObservedView::from_request(&json!({"messages": [], "tools": without_nodes}));
    let compared = compare_view(&view, &registry, &lab);
    assert!(compared.is_clean(), "{:?}", compared.notes);
    assert!(
        compared
            .notes
            .iter()
            .any(|n| n.contains("not compared") && n.ends_with("docs_read_doc, docs_search")),
        "{:?}",
        compared.notes
    );
    let names: Vec<Value> = without_nodes
        .iter()
        .map(|t| json!({"id": t["function"]["name"]}))
        .collect();
    let gateway =
        ObservedView::from_tools_effective(&json!({"groups": [{"id": "core", "tools": names}]}))
            .unwrap();
    let compared = compare_view(&view, &registry, &gateway);
    let only_ours: Vec<&str> = compared
        .verdicts
        .iter()
        .filter(|v| v.agreement == crate::comparison::Agreement::ClawdeckOnly)
        .map(|v| v.tool.as_str())
        .collect();
    assert!(only_ours.contains(&"docs_search"), "{only_ours:?}");
}
