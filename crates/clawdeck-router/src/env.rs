//! The child's environment. By default it inherits clawdeck's (`openclaw agent --local` needs
//! the provider keys); with `router.clearEnv: true` it gets only what `router.envPassthrough`
//! names (seed 000 §1: the remote brain gets nothing from this computer it does not need).

use crate::config::settings::RouterSettings;

/// The variables set for the child from the pass-through list, in its order. With
/// `router.clearEnv` on they are all it gets; off, they are set over the inherited environment.
pub(crate) fn child_env(
    settings: &RouterSettings,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for name in &settings.env_passthrough {
        if out.iter().any(|(k, _)| k == name) {
            continue;
        }
        if let Some(value) = env(name) {
            out.push((name.clone(), value));
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn only_listed_variables_pass() {
        let s = RouterSettings {
            env_passthrough: vec![
                "PATH".into(),
                "HOME".into(),
                "PATH".into(),
                "MISSING".into(),
            ],
            ..RouterSettings::default()
        };
        let env = |k: &str| match k {
            "PATH" => Some("/bin".to_string()),
            "HOME" => Some("/home/u".to_string()),
            "SECRET_TOKEN" => Some("x".to_string()),
            _ => None,
        };
        assert_eq!(
            child_env(&s, &env),
            vec![
                ("PATH".into(), "/bin".into()),
                ("HOME".into(), "/home/u".into())
            ]
        );
    }
}
