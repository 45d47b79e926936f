# continue-mcp installer for Windows (PowerShell 5.1 or 7):
#   & ([scriptblock]::Create((irm https://github.com/continue-mcp/continue-mcp/releases/latest/download/install.ps1))) -Workspace .
#
# Downloads the Windows archive from the latest (or -Version) release, checks it against the release's
# SHA256SUMS, puts every <name>-mcp.exe in a bin folder, and with -Workspace writes the Continue block
# files there naming each server by absolute path (Continue in VS Code uses VS Code's own PATH).
#
#   -Version vX.Y.Z   a given release instead of the latest
#   -Bin DIR          where the executables go (default: %LOCALAPPDATA%\continue-mcp\bin)
#   -Workspace DIR    write DIR\.continue\mcpServers\<name>.yaml and DIR\.continue\rules\*.md
# $env:CONTINUE_MCP_RELEASES overrides the releases URL (default: this repository's GitHub releases).
param(
  [string]$Version = "",
  [string]$Bin = (Join-Path $env:LOCALAPPDATA "continue-mcp\bin"),
  [string]$Workspace = ""
)
$ErrorActionPreference = "Stop"
$ProgressPreference = "SilentlyContinue" # Windows PowerShell's progress bar slows downloads tenfold.
Set-StrictMode -Version 3.0
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

# The release workflow writes its own repository here when it publishes this script.
$repository = "continue-mcp/continue-mcp"
$releases = if ($env:CONTINUE_MCP_RELEASES) { $env:CONTINUE_MCP_RELEASES } else { "https://github.com/$repository/releases" }

$arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
if ($arch -ne "X64" -and $arch -ne "Arm64") { throw "install.ps1: no release for CPU $arch" }
# Windows on Arm runs the x86_64 build under its emulation.
$archive = "continue-mcp-x86_64-pc-windows-msvc.zip"
$base = if ($Version) { "$releases/download/$Version" } else { "$releases/latest/download" }

$temp = Join-Path ([IO.Path]::GetTempPath()) ("continue-mcp-install-" + [guid]::NewGuid().ToString("N"))
New-Item -ItemType Directory -Path $temp | Out-Null
try {
  Write-Host "downloading $base/$archive"
  Invoke-WebRequest -UseBasicParsing -Uri "$base/SHA256SUMS" -OutFile (Join-Path $temp "SHA256SUMS")
  Invoke-WebRequest -UseBasicParsing -Uri "$base/$archive" -OutFile (Join-Path $temp $archive)

  $expected = $null
  foreach ($line in Get-Content (Join-Path $temp "SHA256SUMS")) {
    $parts = $line.Trim() -split '\s+', 2
    if ($parts.Count -eq 2 -and $parts[1].TrimStart('*') -eq $archive) { $expected = $parts[0].ToLowerInvariant() }
  }
  if (-not $expected) { throw "install.ps1: SHA256SUMS lists no $archive" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path (Join-Path $temp $archive)).Hash.ToLowerInvariant()
  if ($actual -ne $expected) {
    throw "install.ps1: checksum mismatch for ${archive}: expected $expected, got $actual; nothing installed"
  }
  Write-Host "checksum ok ($actual)"

  Expand-Archive -Path (Join-Path $temp $archive) -DestinationPath (Join-Path $temp "unpacked")
  $unpacked = Join-Path $temp "unpacked\continue-mcp"
  if (-not (Test-Path (Join-Path $unpacked "bin"))) { throw "install.ps1: $archive holds no continue-mcp\bin folder" }

  New-Item -ItemType Directory -Force -Path $Bin | Out-Null
  $Bin = (Resolve-Path -LiteralPath $Bin).Path
  # Leftovers of an earlier update whose servers have exited since.
  Get-ChildItem -LiteralPath $Bin -Filter "*.old-*" -File | Remove-Item -Force -ErrorAction SilentlyContinue
  foreach ($file in Get-ChildItem -LiteralPath (Join-Path $unpacked "bin") -File) {
    $target = Join-Path $Bin $file.Name
    $new = "$target.new"
    Copy-Item -LiteralPath $file.FullName -Destination $new -Force
    # A running .exe cannot be overwritten or deleted, but it can be renamed: move it aside first.
    if (Test-Path -LiteralPath $target) {
      try {
        Remove-Item -LiteralPath $target -Force
      } catch {
        Move-Item -LiteralPath $target -Destination "$target.old-$([guid]::NewGuid().ToString('N').Substring(0, 8))" -Force
      }
    }
    Move-Item -LiteralPath $new -Destination $target -Force
    # Only the files this script just wrote: a "downloaded from the internet" mark on them came from here.
    Unblock-File -LiteralPath $target
    Write-Host "installed $target"
  }

  if ($Workspace) {
    New-Item -ItemType Directory -Force -Path (Join-Path $Workspace ".continue\mcpServers") | Out-Null
    New-Item -ItemType Directory -Force -Path (Join-Path $Workspace ".continue\rules") | Out-Null
    $Workspace = (Resolve-Path -LiteralPath $Workspace).Path
    foreach ($block in Get-ChildItem -LiteralPath (Join-Path $unpacked "continue\mcpServers") -Filter "*.yaml" -File) {
      $command = Join-Path $Bin "$($block.BaseName)-mcp.exe"
      # YAML single quotes keep backslashes literal; a quote is doubled.
      $quoted = "'" + $command.Replace("'", "''") + "'"
      $lines = foreach ($line in Get-Content -LiteralPath $block.FullName) {
        if ($line -match '^    command: ') { "    command: $quoted" } else { $line }
      }
      $target = Join-Path $Workspace ".continue\mcpServers\$($block.Name)"
      [IO.File]::WriteAllLines($target, [string[]]$lines) # UTF-8 without a byte order mark
      Write-Host "block     $target"
    }
    foreach ($rule in Get-ChildItem -LiteralPath (Join-Path $unpacked "continue\rules") -Filter "*.md" -File) {
      Copy-Item -LiteralPath $rule.FullName -Destination (Join-Path $Workspace ".continue\rules") -Force
      Write-Host "rule      $(Join-Path $Workspace ".continue\rules\$($rule.Name)")"
    }
  }

  $userPath = [Environment]::GetEnvironmentVariable("Path", "User")
  if ((($userPath -split ';') + ($env:Path -split ';')) -contains $Bin) {
    Write-Host "done: the servers are on PATH in $Bin"
  } else {
    Write-Host "done: the servers are in $Bin, which is not on PATH. Add it for your user (then restart VS Code):"
    Write-Host "  [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';$Bin', 'User')"
  }
  if (-not $Workspace) { Write-Host "to wire them into a workspace, run this again with -Workspace C:\path\to\project" }
} finally {
  Remove-Item -LiteralPath $temp -Recurse -Force -ErrorAction SilentlyContinue
}
