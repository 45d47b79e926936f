#!/bin/sh
# continue-mcp installer for Linux and macOS:
#   curl -fsSL https://github.com/continue-mcp/continue-mcp/releases/latest/download/install.sh | sh -s -- --workspace .
#
# Downloads the archive for this OS and CPU from the latest (or --version) release, checks it against the
# release's SHA256SUMS, puts every <name>-mcp in a bin folder, and with --workspace writes the Continue
# block files there naming each server by absolute path (Continue may not see your shell's PATH).
#
#   --version vX.Y.Z   a given release instead of the latest
#   --bin DIR          where the executables go (default: $XDG_BIN_HOME or ~/.local/bin)
#   --workspace DIR    write DIR/.continue/mcpServers/<name>.yaml and DIR/.continue/rules/*.md
# CONTINUE_MCP_RELEASES overrides the releases URL (default: this repository's GitHub releases).
set -eu

# The release workflow writes its own repository here when it publishes this script.
repository="continue-mcp/continue-mcp"
releases="${CONTINUE_MCP_RELEASES:-https://github.com/$repository/releases}"
version=""
bin="${XDG_BIN_HOME:-$HOME/.local/bin}"
workspace=""

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || fail "--version needs a value"; version="$2"; shift 2 ;;
    --bin) [ $# -ge 2 ] || fail "--bin needs a value"; bin="$2"; shift 2 ;;
    --workspace) [ $# -ge 2 ] || fail "--workspace needs a value"; workspace="$2"; shift 2 ;;
    *) fail "unknown argument \"$1\" (expected --version, --bin, --workspace)" ;;
  esac
done

case "$(uname -s)" in
  Linux) os="unknown-linux-gnu" ;;
  Darwin) os="apple-darwin" ;;
  *) fail "no release for $(uname -s); on Windows use install.ps1" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) cpu="x86_64" ;;
  aarch64 | arm64) cpu="aarch64" ;;
  *) fail "no release for CPU $(uname -m)" ;;
esac
# A shell under Rosetta reports x86_64 on Apple silicon: take the native build.
if [ "$os" = "apple-darwin" ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = "1" ]; then
  cpu="aarch64"
fi
archive="continue-mcp-$cpu-$os.tar.gz"
if [ -n "$version" ]; then base="$releases/download/$version"; else base="$releases/latest/download"; fi

download() { # url file
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || fail "cannot download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "cannot download $1"
  else
    fail "needs curl or wget"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    fail "needs sha256sum or shasum to check the download"
  fi
}

temp="$(mktemp -d "${TMPDIR:-/tmp}/continue-mcp-install.XXXXXX")"
trap 'rm -rf "$temp"' EXIT

echo "downloading $base/$archive"
download "$base/SHA256SUMS" "$temp/SHA256SUMS"
download "$base/$archive" "$temp/$archive"
expected="$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$temp/SHA256SUMS")"
[ -n "$expected" ] || fail "SHA256SUMS lists no $archive"
actual="$(sha256 "$temp/$archive")"
[ "$actual" = "$expected" ] || fail "checksum mismatch for $archive: expected $expected, got $actual; nothing installed"
echo "checksum ok ($actual)"

mkdir -p "$temp/unpacked"
tar -xzf "$temp/$archive" -C "$temp/unpacked"
unpacked="$temp/unpacked/continue-mcp"
[ -d "$unpacked/bin" ] || fail "$archive holds no continue-mcp/bin folder"

mkdir -p "$bin"
bin="$(cd "$bin" && pwd)"
for file in "$unpacked"/bin/*; do
  name="$(basename "$file")"
  # Copy beside, then rename over: a running server keeps its old file ("Text file busy" otherwise).
  cp "$file" "$bin/.$name.new.$$"
  chmod 755 "$bin/.$name.new.$$"
  mv -f "$bin/.$name.new.$$" "$bin/$name"
  # Only the files this script just wrote: a quarantine flag on them came from this download.
  if [ "$os" = "apple-darwin" ] && command -v xattr >/dev/null 2>&1; then
    xattr -d com.apple.quarantine "$bin/$name" 2>/dev/null || true
  fi
  echo "installed $bin/$name"
done

if [ -n "$workspace" ]; then
  mkdir -p "$workspace/.continue/mcpServers" "$workspace/.continue/rules"
  workspace="$(cd "$workspace" && pwd)"
  for block in "$unpacked"/continue/mcpServers/*.yaml; do
    server="$(basename "$block" .yaml)"
    command="$bin/$server-mcp"
    # YAML double quotes: escape backslashes and quotes in the path.
    quoted="\"$(printf '%s' "$command" | sed 's/\\/\\\\/g; s/"/\\"/g')\""
    COMMAND_LINE="    command: $quoted" awk '/^    command: / { print ENVIRON["COMMAND_LINE"]; next } { print }' \
      "$block" >"$workspace/.continue/mcpServers/$server.yaml"
    echo "block     $workspace/.continue/mcpServers/$server.yaml"
  done
  for rule in "$unpacked"/continue/rules/*.md; do
    [ -e "$rule" ] || continue
    cp "$rule" "$workspace/.continue/rules/"
    echo "rule      $workspace/.continue/rules/$(basename "$rule")"
  done
fi

case ":$PATH:" in
  *":$bin:"*) echo "done: the servers are on PATH in $bin" ;;
  *)
    echo "done: the servers are in $bin, which is not on PATH. Add it (then open a new terminal):"
    echo "  echo 'export PATH=\"$bin:\$PATH\"' >> ~/.profile    # zsh: ~/.zprofile"
    ;;
esac
[ -n "$workspace" ] || echo "to wire them into a workspace, run this again with --workspace /path/to/project"
