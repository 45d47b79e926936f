/**
 * The sandbox's default lists, as data: what no job reads, which domains the network allow-list starts
 * with, where package managers are pointed so they never write the user's real caches, and which variables
 * name host sockets. The policy (policy.ts) applies them; the user widens or adds through config.ts.
 * @module
 */

/** Under the home folder: credentials, tokens, keychains, browser profiles, shell histories. */
export const DENY_READ_IN_HOME: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".netrc",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".config/composer/auth.json",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".config/op",
  // Database, cloud and service clients' saved passwords and tokens.
  ".pgpass",
  ".my.cnf",
  ".s3cfg",
  ".boto",
  ".databrickscfg",
  ".config/rclone",
  ".kaggle",
  ".pulumi/credentials.json",
  ".config/doctl",
  ".config/hcloud",
  ".oci",
  ".fly",
  ".ngrok2",
  ".config/ngrok",
  ".gem/credentials",
  ".config/containers/auth.json",
  ".env",
  ".config/heroku",
  ".config/glab-cli",
  ".config/stripe",
  ".config/sops",
  ".config/configstore/firebase-tools.json",
  ".mc",
  ".cf",
  ".jfrog",
  ".passwd-s3fs",
  ".sentryclirc",
  ".wrangler",
  ".local/share/com.vercel.cli",
  ".dbt/profiles.yml",
  ".minikube",
  // Package managers' and build tools' saved tokens.
  ".yarnrc.yml",
  ".config/pip/pip.conf",
  ".pip/pip.conf",
  ".pip.conf",
  ".config/pypoetry/auth.toml",
  ".bunfig.toml",
  ".composer/auth.json",
  ".sbt/.credentials",
  ".ivy2/.credentials",
  ".m2/settings-security.xml",
  ".nuget/NuGet/NuGet.Config",
  ".config/NuGet/NuGet.Config",
  ".terraformrc",
  // AI tools' tokens.
  ".cache/huggingface/token",
  ".config/github-copilot",
  ".codex",
  ".gemini",
  // X display authority: with it a job could drive the user's desktop.
  ".Xauthority",
  // Continue's and Claude Code's own settings hold model API keys and OAuth tokens.
  ".continue",
  ".claude/.credentials.json",
  ".claude.json",
  // Browser profiles (cookies, saved passwords).
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  ".config/vivaldi",
  "snap/firefox",
  "snap/chromium",
  // Histories hold what was typed: tokens passed on command lines.
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".psql_history",
  ".mysql_history",
  ".node_repl_history",
  ".zhistory",
  ".histfile",
  ".sh_history",
  ".sqlite_history",
  ".rediscli_history",
  ".irb_history",
  ".lesshst",
  ".viminfo",
  ".local/share/fish/fish_history",
  ".local/share/atuin",
  ".config/atuin",
];

/** Outside the home folder: what a job run as root could otherwise read through its owner bits. */
export const DENY_READ_SYSTEM: readonly string[] = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/ssh/ssh_host_rsa_key",
  "/etc/ssh/ssh_host_ecdsa_key",
  "/etc/ssh/ssh_host_ed25519_key",
  "/etc/ssh/ssh_host_dsa_key",
  "/etc/security/opasswd",
  "/etc/ssl/private",
  "/etc/letsencrypt",
  "/etc/NetworkManager/system-connections",
  "/etc/mysql/debian.cnf",
  "/etc/kubernetes",
  "/etc/rancher",
  "/etc/krb5.keytab",
  "/etc/ipsec.secrets",
  "/etc/openvpn",
  "/etc/wireguard",
];

/**
 * Home folder files that run code at a shell's, git's or ssh's start. Read-only anyway unless the user makes
 * a folder holding them writable (MCP_SANDBOX_WRITE=~), or they are symlinks into the workspace (a dotfiles
 * repository): then they stay protected.
 */
export const PROTECTED_IN_HOME: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".config/fish",
  ".gitconfig",
  ".config/git",
  ".ssh",
  ".ssh/config",
  ".ssh/authorized_keys",
  ".ssh/rc",
  ".config/continue-mcp",
  ".continue",
  ".claude",
  ".config/autostart",
  ".config/systemd",
];

/** Where host unix sockets live (docker, dbus, ssh-agent, X11, Wayland, VS Code's IPC): shown empty. */
export const SOCKET_FOLDERS: readonly string[] = ["/run", "/var/run", "/mnt/wslg"];

/** Variables that name host sockets or a way back to the user's desktop: removed from a job's environment. */
export const SOCKET_VARIABLES: readonly string[] = [
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "DBUS_SESSION_BUS_ADDRESS",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "XDG_RUNTIME_DIR",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "VSCODE_IPC_HOOK_CLI",
  "VSCODE_GIT_IPC_HANDLE",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "DOCKER_HOST",
];

/**
 * The default network allow-list: package registries and git hosting, so installs and fetches work.
 * `*.x` matches subdomains of x only.
 */
export const DEFAULT_DOMAINS: readonly string[] = [
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "pypi.org",
  "files.pythonhosted.org",
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  "proxy.golang.org",
  "sum.golang.org",
  "deno.land",
  "dl.deno.land",
  "jsr.io",
  "rubygems.org",
  "repo.maven.apache.org",
  "repo1.maven.org",
  "github.com",
  "codeload.github.com",
  "objects.githubusercontent.com",
];

/**
 * Package managers' cache and home variables → a folder under the sandbox's private cache: a job that
 * could write the user's real caches could poison what later runs outside the sandbox.
 */
export const CACHE_VARIABLES: Readonly<Record<string, string>> = {
  XDG_CACHE_HOME: "xdg",
  "npm_config_cache": "npm",
  YARN_CACHE_FOLDER: "yarn",
  BUN_INSTALL_CACHE_DIR: "bun",
  PIP_CACHE_DIR: "pip",
  UV_CACHE_DIR: "uv",
  POETRY_CACHE_DIR: "poetry",
  GOPATH: "go",
  GOMODCACHE: "go/pkg/mod",
  GOCACHE: "go/build",
  CARGO_HOME: "cargo",
  DENO_DIR: "deno",
  GRADLE_USER_HOME: "gradle",
  COMPOSER_HOME: "composer",
  NUGET_PACKAGES: "nuget",
};
