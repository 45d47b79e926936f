# Signs every .exe in the folder given when the WINDOWS_CERTIFICATE secret (a base64 .pfx) is configured;
# otherwise warns: unsigned executables meet SmartScreen and antivirus false positives (see the README).
param([Parameter(Mandatory = $true)][string]$Bin)
$ErrorActionPreference = "Stop"

if (-not $env:WINDOWS_CERTIFICATE) {
  Write-Output "::warning::No WINDOWS_CERTIFICATE secret: the Windows executables ship unsigned"
  exit 0
}
if (-not $env:WINDOWS_CERTIFICATE_PASSWORD) {
  Write-Output "::error::WINDOWS_CERTIFICATE is set but WINDOWS_CERTIFICATE_PASSWORD is not"
  exit 1
}
$pfx = Join-Path $env:RUNNER_TEMP "certificate.pfx"
[IO.File]::WriteAllBytes($pfx, [Convert]::FromBase64String($env:WINDOWS_CERTIFICATE))
try {
  $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
    Sort-Object FullName -Descending | Select-Object -First 1
  if (-not $signtool) { throw "signtool.exe not found in the Windows SDK" }
  foreach ($file in Get-ChildItem -Path $Bin -Filter "*.exe") {
    & $signtool.FullName sign /fd SHA256 /f $pfx /p $env:WINDOWS_CERTIFICATE_PASSWORD `
      /tr http://timestamp.digicert.com /td SHA256 $file.FullName
    if ($LASTEXITCODE -ne 0) { throw "signtool sign failed on $($file.Name)" }
    & $signtool.FullName verify /pa $file.FullName
    if ($LASTEXITCODE -ne 0) { throw "signtool verify failed on $($file.Name)" }
  }
} finally {
  Remove-Item -Force $pfx
}
