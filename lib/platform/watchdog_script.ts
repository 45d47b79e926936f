/**
 * The POSIX watchdog's script (`/bin/sh`, dash-compatible, builtins plus `grep`, `kill` and `sleep`). It reads
 * `+ <pgid>` / `- <pgid>` (a job's process group) and `r <pid>` / `x <pid>` (an orphan the server adopted)
 * lines and notes each leader's or orphan's start time as the line arrives. At EOF (its parent died: nobody
 * else holds the pipe) it kills, TERM then KILL a second later:
 * - the listed groups whose leader is gone or is still the same process (a live process with that pid and
 *   another start time means the number was reused: that group is not ours), and on Linux their members by
 *   session too;
 * - the listed orphans that are still the same process;
 * - every process of ours (real and effective uid: the `Uid:` line of its status, not the owner of its
 *   environ, which is root for a non-dumpable process) whose environment matches the BRE given as `$1`
 *   (Linux /proc): another user can read that BRE in our argv and copy the marker;
 * - every descendant of all these: parent links still lead to them after the server's death.
 * Every pid is checked by its start time right before it is signalled. `q` ends it without killing.
 * @module
 */

/** The script; its one argument is the BRE of marker environment entries. */
export const WATCHDOG_SCRIPT = `trap '' HUP INT
marker=$1 groups=' ' roots=' ' victims=' '
# me: our effective uid; mine: process $1's real and effective uid are both that.
set -- $(grep -s '^Uid:' "/proc/$$/status")
me=\${3:-none}
mine() {
  set -- $(grep -s '^Uid:' "/proc/$1/status")
  [ "$2" = "$me" ] && [ "$3" = "$me" ]
}
# st: the start time of process $1 (field 22 of /proc/$1/stat); fails when there is no such process.
started() {
  st=
  read -r s < "/proc/$1/stat" || return 1
  s=\${s##*") "}
  set -- $s
  st=\${20}
}
# okgroups: the listed groups still ours; victims: "pid:start " of all to kill (earlier rounds' kept).
collect() {
  okgroups=' '
  for t in $groups; do
    g=\${t%%:*}
    if started "$g"; then [ "$st" = "\${t#*:}" ] || continue; fi
    okgroups="$okgroups$g "
  done
  snap=
  for f in /proc/[0-9]*/stat; do
    read -r s < "$f" || continue
    p=\${s%% *}
    s=\${s##*") "}
    set -- $s
    snap="$snap$p $2 $3 $4 \${20}
"
  done
  while read -r p pp pg sd s; do
    [ -n "$p" ] && [ "$p" != $$ ] || continue
    case $okgroups in *" $pg "* | *" $sd "*) victims="$victims$p:$s "; continue ;; esac
    case $roots in *" $p:$s "*) victims="$victims$p:$s " ;; esac
  done <<SNAPSHOT
$snap
SNAPSHOT
  for f in $(grep -lsz -e "$marker" /proc/[0-9]*/environ); do
    p=\${f#/proc/}
    p=\${p%/environ}
    mine "$p" && started "$p" && victims="$victims$p:$st "
  done
  more=1
  while [ $more = 1 ]; do
    more=0
    while read -r p pp pg sd s; do
      case $victims in *" $p:"*) continue ;; esac
      case $victims in *" $pp:"*) victims="$victims$p:$s " more=1 ;; esac
    done <<SNAPSHOT
$snap
SNAPSHOT
  done
}
while read -r op id; do
  case $op:$id in
  q:) exit 0 ;;
  *: | *:*[!0-9]* | *:0) ;;
  +:*) started "$id"; groups="$groups$id:$st " ;;
  r:*) started "$id" && roots="$roots$id:$st " ;;
  -:*) case $groups in *" $id:"*) a=\${groups%%" $id:"*} b=\${groups#*" $id:"}; groups="$a \${b#* }" ;; esac ;;
  x:*) case $roots in *" $id:"*) a=\${roots%%" $id:"*} b=\${roots#*" $id:"}; roots="$a \${b#* }" ;; esac ;;
  esac
done
for sig in TERM KILL; do
  collect
  for t in $victims; do started "\${t%%:*}" && [ "$st" = "\${t#*:}" ] && kill -s $sig "\${t%%:*}"; done
  for g in $okgroups; do kill -s $sig -- "-$g"; done
  [ $sig = KILL ] || sleep 1
done 2>/dev/null
`;
