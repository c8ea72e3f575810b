#!/bin/sh
# warden-hook.sh: the hook command `warden setup <connector>` installs where `sh` and `curl` exist, because an agent
# runs it on every tool call and starting Node.js costs more than the whole check. Same arguments as warden-hook.mjs:
#   sh warden-hook.sh <connector> [--home DIR] [--event NAME] [--notify] [EVENT_JSON]
# It posts the event (stdin, or EVENT_JSON as the last argument, as Codex's `notify` passes it) to the sidecar's
# POST /api/v1/<connector>/hook?native=1 (with --notify, the connector's turn-complete notifier .../notify), whose
# answer is the exit code, the stderr text (escaped on one line) and the stdout bytes
# (src/connectors/hook-answer-text.ts), prints them and exits with the code. Only sh built-ins and one curl run on the
# happy path. Everything else goes to warden-hook.mjs, so the fail mode lives in one place: before the event is read
# (no settings, odd arguments) it runs instead of this script; after, it gets `--failed REASON` or, for an answer
# this script cannot use, `--answered STATUS` with the answer on stdin. The settings come from
# $WARDEN_HOME/hooks/<connector>.curlrc, written by setup (docs/hooks.md): four `# key=value` lines for this script,
# then curl options (the hook token's header, so the token never appears in any process's arguments).

connector=${1-}
home=${WARDEN_HOME:-${HOME:+$HOME/.warden}}
event=
route=hook
inline=
has_inline=

# Reads the arguments as warden-hook.mjs does; false for anything it would read differently.
parse() {
  [ $# -ge 1 ] || return 1
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --home | --event)
        [ $# -ge 2 ] || return 1
        if [ "$1" = --home ]; then home=$2; else event=$2; fi
        shift 2
        ;;
      --notify)
        route=notify
        shift
        ;;
      --failed | --answered) return 1 ;;
      *)
        [ -z "$has_inline" ] || return 1
        inline=$1
        has_inline=1
        shift
        ;;
    esac
  done
}

case $0 in */*) node_script=${0%/*}/warden-hook.mjs ;; *) node_script=warden-hook.mjs ;; esac
node=node
rc=
# warden-hook.mjs in this script's place, with the arguments as given; the event is still unread.
instead() {
  exec "$node" "$node_script" "$@"
}

parsed=1
parse "$@" || parsed=
case $connector in '' | *[!a-z0-9]*) instead "$@" ;; esac
[ -n "$home" ] || instead "$@"
rc=$home/hooks/$connector.curlrc
[ -r "$rc" ] || instead "$@"

{ IFS= read -r _ && IFS= read -r node_line && IFS= read -r curl_line && IFS= read -r sidecar_line && IFS= read -r total_line; } <"$rc" || instead "$@"
case $node_line in '# node=/'*) node=${node_line#'# node='} ;; *) instead "$@" ;; esac
case $curl_line in '# curl=/'*) curl=${curl_line#'# curl='} ;; *) instead "$@" ;; esac
case $sidecar_line in '# sidecar='*) sidecar=${sidecar_line#'# sidecar='} ;; *) instead "$@" ;; esac
case $total_line in '# total_ms='[1-9]*) total_ms=${total_line#'# total_ms='} ;; *) instead "$@" ;; esac
case $total_ms in *[!0-9]*) instead "$@" ;; esac
[ -n "$parsed" ] || instead "$@"
case $event in *[!A-Za-z0-9_.:-]*) instead "$@" ;; esac
[ ${#event} -le 64 ] || instead "$@"

# The sidecar: the settings' own, else the running gateway's (gateway.json is one line of JSON.stringify), else
# the default; the same order as warden-hook.mjs.
if [ -z "$sidecar" ] && [ -r "$home/gateway.json" ]; then
  IFS= read -r record <"$home/gateway.json"
  case $record in *'"sidecar":"'*)
    sidecar=${record#*'"sidecar":"'}
    sidecar=${sidecar%%'"'*}
    ;;
  esac
fi
sidecar=${sidecar:-http://127.0.0.1:18970}
while :; do case $sidecar in */) sidecar=${sidecar%/} ;; *) break ;; esac; done
url=$sidecar/api/v1/$connector/$route?native=1${event:+&event=$event}
max_time=$((total_ms / 1000)).$((total_ms % 1000 / 100))$((total_ms % 100 / 10))$((total_ms % 10))

# From here on the event is being read: failures go to warden-hook.mjs with the fail mode.
failed() {
  exec "$node" "$node_script" "$@" --failed "$reason"
}
if [ -n "$has_inline" ]; then
  exec <<EOF
$inline
EOF
fi
# One simple command in the substitution, so dash forks once and execs curl there.
answer=$("$curl" -s --connect-timeout 2 --max-time "$max_time" --max-filesize 4194304 -K "$rc" \
  -X POST -T - -H 'Expect:' -H 'Content-Type: application/json' -H 'X-Warden-Client: warden-hook' \
  -w '\n%{http_code} %{time_connect}' --url "$url" 2>/dev/null)
status=$?

NL='
'
# The trailer -w adds after the body: cut from the end, linear in the answer's length.
body=${answer%"$NL"*}
trailer=${answer##*"$NL"}
http=${trailer%% *}
connected=${trailer#* }
case $status in
  0) ;;
  6) reason="sidecar unreachable at $sidecar: cannot resolve its host" ;;
  7) reason="sidecar unreachable at $sidecar: cannot connect" ;;
  28)
    case $connected in
      '' | 0 | 0.000000) reason="no connection within 2000 ms" ;;
      *) reason="no answer within $total_ms ms" ;;
    esac
    ;;
  18 | 52 | 55 | 56) reason='connection closed before the answer was complete' ;;
  26) reason='cannot read the event from stdin' ;;
  63) reason='answer larger than 4 MiB' ;;
  1 | 3) reason='invalid sidecar URL in the hook settings' ;;
  *) reason="sidecar unreachable at $sidecar: curl exit $status" ;;
esac
[ "$status" = 0 ] || failed "$@"

# The native answer: the exit code, stderr escaped for printf %b, then stdout verbatim. Only the two short first
# lines are cut off (dash cuts at a long prefix in quadratic time).
code=${body%%"$NL"*}
readable=
if [ "$http" = 200 ]; then
  case $code in [0-9] | [1-9][0-9] | 1[0-9][0-9] | 2[0-4][0-9] | 25[0-5])
    rest=${body#"$code$NL"}
    err=${rest%%"$NL"*}
    out=${rest#"$err$NL"}
    [ "$rest" = "$body" ] || [ "$out" = "$rest" ] || readable=1
    ;;
  esac
fi
if [ -z "$readable" ]; then
  printf '%s' "$body" | "$node" "$node_script" "$@" --answered "${http:-0}"
  exit
fi
printf '%s' "$out"
[ -z "$err" ] || printf '%b' "$err" >&2
exit "$code"
