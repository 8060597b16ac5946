// The bash script: COMP_WORDS walked with the shared tables; --option=value put back together.
import { posixTables } from './posix.js';
import { HEADER, PROFILES_COMMAND } from './shared.js';
import type { CommandSpec } from './tree.js';

export function bash(specs: CommandSpec[]): string {
  return `${HEADER}
# Install: copy to ~/.local/share/bash-completion/completions/llmobs, or source it from ~/.bashrc.

${posixTables(specs)}

# Offers the values of KIND for the word CUR.
__llmobs_values() {
  local kind=$1 cur=$2 IFS=$'\\n'
  case "$kind" in
    @any|'') COMPREPLY=() ;;
    @files) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    @profiles) COMPREPLY=($(compgen -W "$(${PROFILES_COMMAND})" -- "$cur")) ;;
    @commands) __llmobs_children "$__llmobs_target"; IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur")) ;;
    *) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$kind" -- "$cur")) ;;
  esac
}

_llmobs() {
  local cword=$COMP_CWORD
  local -a typed=("\${COMP_WORDS[@]}")
  local cur=\${typed[cword]} option=''
  # Bash splits --option=value at "=" (COMP_WORDBREAKS): put the pieces back together.
  if [ "$cur" = '=' ] && [ $cword -ge 2 ]; then
    option=\${typed[cword-1]} cur=''
  elif [ $cword -ge 3 ] && [ "\${typed[cword-1]}" = '=' ]; then
    option=\${typed[cword-2]}
  fi
  local -a before=()
  local i
  for ((i = 1; i < cword; i++)); do
    if [ "\${typed[i]}" = '=' ] && [ \${#before[@]} -gt 0 ]; then
      before[\${#before[@]}-1]="\${before[\${#before[@]}-1]}="
      [ $((i + 1)) -lt $cword ] && { before[\${#before[@]}-1]="\${before[\${#before[@]}-1]}\${typed[i+1]}"; i=$((i + 1)); }
      continue
    fi
    before+=("\${typed[i]}")
  done
  if [ -n "$option" ]; then unset 'before[\${#before[@]}-1]'; fi
  __llmobs_walk "\${before[@]}"
  if [ -n "$option" ]; then
    __llmobs_value "$__llmobs_path" "$option"
    __llmobs_values "$__llmobs_r" "$cur"
    return 0
  fi
  if [ -n "$__llmobs_pending" ]; then
    __llmobs_value "$__llmobs_path" "$__llmobs_pending"
    __llmobs_values "$__llmobs_r" "$cur"
    return 0
  fi
  if [ $__llmobs_dashdash = 0 ]; then
    case "$cur" in
      -*)
        __llmobs_options "$__llmobs_path"
        COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur"))
        return 0 ;;
    esac
  fi
  __llmobs_children "$__llmobs_path"
  if [ -n "$__llmobs_r" ] && [ $__llmobs_nargs = 0 ]; then
    COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur"))
    return 0
  fi
  __llmobs_arg "$__llmobs_path" "$__llmobs_nargs"
  __llmobs_values "$__llmobs_r" "$cur"
  return 0
}

complete -F _llmobs llmobs
`;
}

