#!/bin/sh
# SPDX-License-Identifier: MIT
#
# usage: tools/gen-docs.sh MESS OUTDIR [DOCDIR]
#
# The man pages mess(1) and mess-<command>(1), and the bash and zsh
# completion, generated from the built binary's own tables: the command
# table (mess --list-commands) and each command's option table (its
# --help, which that table prints), so that neither can drift from the
# code.  Option values complete too where a table lists them (export's
# formats, the memory kinds of mess nodes, this machine's NUMA nodes).
# DOCDIR is where make install puts results/README.md (as results.md) and
# docs/reference.md, which the pages name (default
# /usr/local/share/doc/mess): never a file of the source tree.  Writes
# OUTDIR/man/man1/*.1, OUTDIR/bash-completion/completions/mess and
# OUTDIR/zsh/vendor-completions/_mess.
set -eu
mess=$1
out=$2
# What the build machine lacks is not the pages' to say (main.c).
MESS_DOCS=1
export MESS_DOCS
docdir=${3:-/usr/local/share/doc/mess}
version=$("$mess" --version)
man=$out/man/man1
mkdir -p "$man" "$out/bash-completion/completions" "$out/zsh/vendor-completions"

# Text as roff: backslashes escaped, no line read as a request, minus signs
# as such.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }
# The options of a command, one a line, from its help, each once (a help
# may list one in two sections: sample's --out).
options() { "$mess" $1 --help | sed -n 's/^  \(--[a-z0-9][a-z0-9-]*\).*/\1/p' | awk '!seen[$0]++'; }
# The source tree's documents as installed.
docpaths() { sed -e "s|results/README\.md|$docdir/results.md|g" -e "s|docs/reference\.md|$docdir/reference.md|g"; }
# The values an option takes, where a table lists them (one line, spaces):
# export's formats (its Formats: block), the memory kinds (mess nodes'
# Kinds block, less unknown, which cannot be asked for; "each" where the
# command's --mem-node help offers it), import's processings (its usage
# line's alternatives), else the list in the option's help ("auto, perf,
# spe-raw or spe-hex (default ...").
block() { # COMMAND HEADING: the first words of the block's lines
	"$mess" $1 --help | awk -v h="$2" 'index($0, h) == 1 { on = 1; next }
		on && /^  [a-z]/ { print $1; next } on { exit }'
}
values() { # COMMAND OPTION
	case $2 in
	--format)
		if [ "$1" = export ]; then
			block export Formats: | paste -sd' ' -
		else
			"$mess" $1 --help | sed -n "s/^  --format [A-Z]*  *\([a-z0-9-]*\(, [a-z0-9-]*\)* or [a-z0-9-]*\) (.*/\1/p" |
				sed 's/,//g; s/ or / /' | head -n 1
		fi ;;
	--processing)
		# the usage line's alternatives: [--processing a|b|c]
		"$mess" $1 --help | sed -n '1s/.*\[--processing \([a-z0-9|-]*\)\].*/\1/p' | tr '|' ' ' ;;
	--stat)
		# "mean (default), p50, p90, p99 or p99.9"
		"$mess" $1 --help | sed -n 's/^  --stat S  *[^:]*: \(mean\) (default), \([a-z0-9., ]*\) or \([a-z0-9.]*\) (.*/\1, \2, \3/p' |
			sed 's/,//g' | head -n 1 ;;
	--variant)
		# every port's variants (the build's ISA's only: the table)
		"$mess" curves --list 2>/dev/null | awk '/^generator variants/ { on = 1; next }
			on && /^  [a-z]/ { print $1; next } on { exit }' | paste -sd' ' - ;;
	--counters)
		echo "auto off $("$mess" counters --list 2>/dev/null | sed -n 's/^  \([a-z0-9-]*\): .*/\1/p' | paste -sd' ' -)" ;;
	--mem-node)
		k=$(block nodes Kinds | grep -vx unknown | paste -sd' ' -)
		if "$mess" $1 --help | grep -q -- '--mem-node .*each:'; then
			echo "each $k"
		else
			echo "$k"
		fi ;;
	esac
}

# One case a line (FORMAT: printf's, given the command, the option and
# its values) for each option with values; a node number is this
# machine's, read when the shell completes.
value_cases() {
	for c in $cmds; do
		for o in $(options "$c" | grep -x -e --format -e --mem-node -e --processing \
				-e --stat -e --variant -e --counters); do
			v=$(values "$c" "$o")
			[ -n "$v" ] || continue
			case $o in
			--mem-node) v="$v \$(cd /sys/devices/system/node 2>/dev/null && ls -d node[0-9]* | sed s/node//)" ;;
			esac
			# shellcheck disable=SC2059
			printf "$1" "$c" "$o" "$v"
		done
	done
}

page() { # NAME SUMMARY HELP-COMMAND...
	name=$1 summary=$2
	shift 2
	upper=$(echo "$name" | tr 'a-z' 'A-Z')
	{
		echo ".TH $upper 1 \"\" \"$version\" \"mess manual\""
		echo ".SH NAME"
		printf '%s \\- %s\n' "$name" "$summary" | roff_keep_name
		echo ".SH DESCRIPTION"
		echo ".nf"
		"$@" | docpaths | roff
		echo ".fi"
		[ "$name" != mess ] || main_sections
		echo ".SH EXIT STATUS"
		echo "0 ok; 1 bad usage or input (one line names the option or file, the value"
		echo "and what is allowed; nothing is written); 2 failure, also a result refused"
		echo "for its data (\\-\\-strict on an INVALID verdict, mess export of an INVALID run);"
		echo "3 not supported on this machine; 130 interrupted (the partial result is kept)."
		echo ".SH FILES"
		echo "Every run directory holds report.html (open it in a browser), summary.md,"
		echo "meta.json and the CSVs;"
		echo ".I $docdir/results.md"
		echo "documents each, and"
		echo ".I $docdir/reference.md"
		echo "how mess measures.  The plot scripts are in the share/mess directory beside"
		echo "the binary's bin directory."
		echo ".SH SEE ALSO"
		echo "$seealso"
	} >"$man/$name.1"
}
# mess(1) is more than the curves' help: every command with its summary,
# and an example of each (the first of its help's Examples).
main_sections() {
	echo ".SH COMMANDS"
	"$mess" --list-commands | while IFS="$(printf '\t')" read -r c summary; do
		echo ".TP"
		echo ".B mess $c" | roff_keep_name
		echo "$summary." | docpaths | roff
		echo ".br"
		echo "See mess\\-$c(1)."
	done
	echo ".SH EXAMPLES"
	echo ".nf"
	"$mess" --list-commands | cut -f1 | while read -r c; do
		"$mess" $c --help | awk '/^Examples:/ { on = 1; next } on && /^  / { print; exit } on { exit }'
	done | docpaths | roff
	echo ".fi"
}
# The NAME line keeps its one \- separator.
roff_keep_name() { sed -e 's/\\/\\e/g' -e 's/\\e-/\\-/'; }

cmds=$("$mess" --list-commands | cut -f1)
seealso=$(for c in $cmds; do printf 'mess\\-%s(1)\n' "$c"; done | paste -sd, - | sed 's/,/, /g')
page mess "memory-system characterisation: bandwidth-latency curves, absorption tables, latency ladders" "$mess" --help
"$mess" --list-commands | while IFS="$(printf '\t')" read -r c summary; do
	page "mess-$c" "$summary" "$mess" "$c" --help
done

# bash: the commands first, then the options of the command given.
{
	echo "# bash completion for mess, generated by tools/gen-docs.sh from its tables"
	echo "_mess() {"
	echo '	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=curves w'
	echo '	for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do'
	echo '		case $w in'
	printf '\t\t%s) cmd=$w; break;;\n' "$(echo $cmds | tr ' ' '|')"
	echo '		esac'
	echo '	done'
	echo '	case $cmd in'
	for c in $cmds; do
		printf '\t%s) opts="%s";;\n' "$c" "$(options "$c" | tr '\n' ' ' | sed 's/ $//')"
	done
	echo '	esac'
	# An option's values: from the tables, and this machine's nodes.
	# "--format=pr": the option before the '=' and the value after it
	# (bash splits at '=' when COMP_WORDBREAKS has it: then prev is '=').
	echo '	if [[ $cur == --*=* ]]; then prev=${cur%%=*}; cur=${cur#*=};'
	echo '	elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi'
	echo '	case $cmd:$prev in'
	value_cases '\t%s:%s) COMPREPLY=($(compgen -W "%s" -- "$cur")); return;;\n'
	echo '	esac'
	echo '	if [[ $cur == -* ]]; then'
	echo '		COMPREPLY=($(compgen -W "$opts" -- "$cur"))'
	echo '	elif [ "$COMP_CWORD" -eq 1 ]; then'
	printf '\t\tCOMPREPLY=($(compgen -W "%s help --help --version" -- "$cur"))\n' "$(echo $cmds)"
	echo '	else'
	echo '		COMPREPLY=($(compgen -f -- "$cur"))'
	echo '	fi'
	echo '}'
	echo 'complete -o filenames -F _mess mess'
} >"$out/bash-completion/completions/mess"

# zsh: the commands with their summaries, then the options.
{
	echo "#compdef mess"
	echo "# zsh completion for mess, generated by tools/gen-docs.sh from its tables"
	echo "local -a cmds opts"
	echo "cmds=("
	"$mess" --list-commands | while IFS="$(printf '\t')" read -r c summary; do
		printf "  '%s:%s'\n" "$c" "$(echo "$summary" | sed "s/'/'\\\\''/g; s/:/\\\\:/g")"
	done
	echo ")"
	echo 'local cmd=curves w'
	echo 'for w in ${words[2,CURRENT-1]}; do'
	echo '  case $w in'
	printf '    %s) cmd=$w; break;;\n' "$(echo $cmds | tr ' ' '|')"
	echo '  esac'
	echo 'done'
	echo 'case $cmd in'
	for c in $cmds; do
		printf '  %s) opts=(%s);;\n' "$c" "$(options "$c" | tr '\n' ' ' | sed 's/ $//')"
	done
	echo 'esac'
	echo 'case $cmd:${words[CURRENT-1]} in'
	value_cases '  %s:%s) compadd -- %s; return;;\n'
	echo 'esac'
	echo 'if [[ $PREFIX == -* ]]; then'
	echo '  compadd -a opts'
	echo 'elif (( CURRENT == 2 )); then'
	echo "  _describe 'command' cmds"
	echo 'else'
	echo '  _files'
	echo 'fi'
} >"$out/zsh/vendor-completions/_mess"
