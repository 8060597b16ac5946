// The zsh script: the shared tables, compadd with descriptions, _files for files.
import { posixTables } from './posix.js';
import { HEADER, PROFILES_COMMAND, q, summary } from './shared.js';
import type { CommandSpec } from './tree.js';

export function zsh(specs: CommandSpec[]): string {
  const lines: string[] = [];
  lines.push('# __llmobs_describe PATH: "word:description" lines for the subcommands and options of PATH.');
  lines.push('__llmobs_describe() {');
  lines.push('  case "$1" in');
  for (const spec of specs) {
    const entries = [
      ...spec.children.flatMap((child) => [child.name, ...child.aliases].map((name) => `${name}:${summary(child.description)}`)),
      ...spec.options.flatMap((option) => option.flags.map((flag) => `${flag}:${summary(option.description)}`)),
    ];
    lines.push(`    ${q(spec.path)}) __llmobs_d=(${entries.map(q).join(' ')}) ;;`);
  }
  lines.push('    *) __llmobs_d=() ;;');
  lines.push('  esac');
  lines.push('}');
  return `#compdef llmobs
${HEADER}
# Install: put this file, named _llmobs, in a directory on $fpath (before compinit runs).

${posixTables(specs)}

${lines.join('\n')}

# Adds WORDS with their descriptions from __llmobs_describe.
__llmobs_add_described() {
  local word entry
  local -a shown display
  for word in "$@"; do
    entry=\${__llmobs_d[(r)\${word}:*]}
    shown+=("$word")
    if [[ -n $entry ]]; then display+=("\${(r:22:)word} -- \${entry#*:}"); else display+=("$word"); fi
  done
  compadd -l -d display -- "\${shown[@]}"
}

# Offers the values of KIND; PREFIX (for --option=value) stays in front of each.
__llmobs_values() {
  local kind=$1 prefix=$2
  local -a values
  case $kind in
    @any|'') return 1 ;;
    @files) if [[ -n $prefix ]]; then compset -P '*='; fi; _files ;;
    @dirs) if [[ -n $prefix ]]; then compset -P '*='; fi; _files -/ ;;
    @profiles)
      values=(\${(f)"$(${PROFILES_COMMAND})"})
      compadd -P "$prefix" -- "\${values[@]}" ;;
    @commands)
      __llmobs_children "$__llmobs_target"
      values=(\${=__llmobs_r})
      compadd -- "\${values[@]}" ;;
    *)
      values=(\${=kind})
      compadd -P "$prefix" -- "\${values[@]}" ;;
  esac
}

_llmobs() {
  local __llmobs_r __llmobs_path __llmobs_nargs __llmobs_pending __llmobs_target __llmobs_dashdash
  local -a __llmobs_d
  local cur=\${words[CURRENT]}
  __llmobs_walk "\${(@)words[2,CURRENT-1]}"
  if [[ -n $__llmobs_pending ]]; then
    __llmobs_value "$__llmobs_path" "$__llmobs_pending"
    __llmobs_values "$__llmobs_r" ''
    return
  fi
  if [[ $__llmobs_dashdash == 0 && $cur == --*=* ]]; then
    __llmobs_value "$__llmobs_path" "\${cur%%=*}"
    __llmobs_values "$__llmobs_r" "\${cur%%=*}="
    return
  fi
  __llmobs_describe "$__llmobs_path"
  if [[ $__llmobs_dashdash == 0 && $cur == -* ]]; then
    __llmobs_options "$__llmobs_path"
    __llmobs_add_described \${=__llmobs_r}
    return
  fi
  __llmobs_children "$__llmobs_path"
  if [[ -n $__llmobs_r && $__llmobs_nargs == 0 ]]; then
    __llmobs_add_described \${=__llmobs_r}
    return
  fi
  __llmobs_arg "$__llmobs_path" "$__llmobs_nargs"
  __llmobs_values "$__llmobs_r" ''
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _llmobs "$@"
else
  compdef _llmobs llmobs
fi
`;
}

