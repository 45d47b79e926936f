/**
 * The fixed part of every Seatbelt profile: what a command-line job needs from macOS besides files and
 * network, on top of `(deny default)`. Each allowance is narrow on purpose, and what is left out is left out
 * for a reason:
 * - no LaunchServices, AppleEvents or pasteboard services: `open -a Terminal` or `osascript` would run a
 *   command outside the sandbox, and the clipboard may hold a password;
 * - no SecurityServer (securityd): it hands keychain items, such as the GitHub token git's
 *   `credential-osxkeychain` stored, to any process that asks;
 * - no cfprefsd: `defaults write` would change another program's settings (Terminal's start-up command);
 * - trust and DNS services only with the network on (network_rules in seatbelt.ts): trustd and ocspd fetch
 *   the URLs a certificate names, which would carry data out with the network off or filtered.
 * @module
 */

/** Processes, signals and IPC: only the job's own processes (`same-sandbox`), never the server or the user's. */
const PROCESSES = [
  "(allow process-exec)",
  "(allow process-fork)",
  "(allow process-info* (target same-sandbox))",
  "(allow signal (target same-sandbox))",
  "(allow user-preference-read)",
  "(allow ipc-posix-sem)",
  "(allow ipc-posix-shm)",
  "(allow pseudo-tty)",
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  // Interface and route queries (getifaddrs), not a network connection.
  "(allow system-socket (require-all (socket-domain AF_SYSTEM) (socket-protocol 2)))",
];

/** Kernel values runtimes read at start (CPU count, OS version, limits); not other processes' arguments. */
const SYSCTL_NAMES = [
  "kern.argmax",
  "kern.boottime",
  "kern.clockrate",
  "kern.hostname",
  "kern.hv_support",
  "kern.maxfiles",
  "kern.maxfilesperproc",
  "kern.maxproc",
  "kern.ngroups",
  "kern.osproductversion",
  "kern.osproductversioncompat",
  "kern.osrelease",
  "kern.ostype",
  "kern.osvariant_status",
  "kern.osversion",
  "kern.secure_kernel",
  "kern.tcsm_available",
  "kern.tcsm_enable",
  "kern.usrstack64",
  "kern.version",
  "machdep.ptrauth_enabled",
  "security.mac.lockdown_mode_state",
  "vm.loadavg",
  "vm.swapusage",
];
const SYSCTL_PREFIXES = [
  "hw.",
  "machdep.cpu.",
  "kern.proc.pid.",
  "kern.proc.pgrp.",
  "kern.proc.all",
  "sysctl.proc_",
];

/** Mach services every job may reach: user and group look-ups, logging, notifications, temp folders. */
const SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.opendirectoryd.membership",
  "com.apple.system.DirectoryService.libinfo_v1",
  "com.apple.system.logger",
  "com.apple.logd",
  "com.apple.system.notification_center",
  "com.apple.bsd.dirhelper",
  "com.apple.PowerManagement.control",
];

/** Mach services for a job with the host's network: name resolution, network configuration, TLS trust. */
export const NETWORK_SERVICES: readonly string[] = [
  "com.apple.dnssd.service",
  "com.apple.SystemConfiguration.configd",
  "com.apple.SystemConfiguration.DNSConfiguration",
  "com.apple.networkd",
  "com.apple.trustd",
  "com.apple.trustd.agent",
  "com.apple.ocspd",
];

/** `(allow mach-lookup (global-name "…") …)` for `names`. */
export function machLookup(names: readonly string[]): string {
  return `(allow mach-lookup\n${names.map((name) => `  (global-name "${name}")`).join("\n")})`;
}

/** The fixed rules, one string per rule. */
export const BASE_RULES: readonly string[] = [
  ...PROCESSES,
  `(allow sysctl-read\n${
    [
      ...SYSCTL_NAMES.map((name) => `  (sysctl-name "${name}")`),
      ...SYSCTL_PREFIXES.map((prefix) => `  (sysctl-name-prefix "${prefix}")`),
    ].join("\n")
  })`,
  // Runtimes "write" these to read CPU details (V8, Java): a buffer passed in, nothing changed.
  '(allow sysctl-write (sysctl-name "kern.tcsm_enable") (sysctl-name "kern.grade_cputype"))',
  machLookup(SERVICES),
];

/**
 * Devices: the null and zero devices, the job's own descriptors (`/dev/stdout` is `/dev/fd/1`), and
 * terminals it opened itself (a pty made in the sandbox carries its extension). Another session's terminal
 * (`/dev/ttys000`, the user's shell) is neither read (keystrokes) nor written.
 */
export const DEVICE_RULES: readonly string[] = [
  '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
  '(allow file-write-data (regex "^/dev/fd/[0-9]+$"))',
  '(deny file-read* file-write* file-ioctl (regex "^/dev/tty.+$"))',
  '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))',
  '(allow file-read* file-write* file-ioctl\n  (require-all (regex "^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))',
];
