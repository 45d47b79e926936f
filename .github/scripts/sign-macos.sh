#!/usr/bin/env bash
# Signs every executable in $1 on a macOS runner: Developer ID + hardened runtime + notarisation when the
# signing secrets are configured, ad-hoc otherwise (enough to run; Gatekeeper still asks about a quarantined
# download, see the README). A partial secret set fails the release rather than shipping unsigned.
set -euo pipefail
bin="$1"
entitlements="$(dirname "$0")/../../tools/macos_entitlements.plist"
secrets=(MACOS_CERTIFICATE MACOS_CERTIFICATE_PASSWORD MACOS_SIGN_IDENTITY APPLE_ID APPLE_TEAM_ID APPLE_APP_PASSWORD)

set_count=0
for name in "${secrets[@]}"; do [ -n "${!name:-}" ] && set_count=$((set_count + 1)); done

if [ "$set_count" -eq 0 ]; then
  echo "::warning::No macOS signing secrets: ad-hoc signing only (users must clear Gatekeeper's quarantine)"
  for file in "$bin"/*; do codesign --force --sign - "$file"; done
elif [ "$set_count" -ne "${#secrets[@]}" ]; then
  echo "::error::Some macOS signing secrets are set but not all of: ${secrets[*]}"
  exit 1
else
  keychain="$RUNNER_TEMP/signing.keychain-db"
  keychain_password="$(openssl rand -hex 24)"
  security create-keychain -p "$keychain_password" "$keychain"
  security set-keychain-settings -lut 21600 "$keychain"
  security unlock-keychain -p "$keychain_password" "$keychain"
  printf '%s' "$MACOS_CERTIFICATE" | base64 --decode >"$RUNNER_TEMP/certificate.p12"
  security import "$RUNNER_TEMP/certificate.p12" -k "$keychain" -P "$MACOS_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
  rm -f "$RUNNER_TEMP/certificate.p12"
  security set-key-partition-list -S apple-tool:,apple: -s -k "$keychain_password" "$keychain" >/dev/null
  security list-keychains -d user -s "$keychain" $(security list-keychains -d user | tr -d '"')
  for file in "$bin"/*; do
    codesign --force --timestamp --options runtime --entitlements "$entitlements" \
      --sign "$MACOS_SIGN_IDENTITY" "$file"
  done
  # Bare executables cannot be stapled: Gatekeeper looks the notarisation up online on first run.
  ditto -c -k --keepParent "$bin" "$RUNNER_TEMP/notarize.zip"
  result="$(xcrun notarytool submit "$RUNNER_TEMP/notarize.zip" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
    --password "$APPLE_APP_PASSWORD" --wait --output-format json)"
  echo "$result"
  status="$(printf '%s' "$result" | jq -r .status)"
  if [ "$status" != "Accepted" ]; then
    echo "::error::Notarisation returned \"$status\""
    exit 1
  fi
fi

for file in "$bin"/*; do codesign --verify --strict --verbose=2 "$file"; done
