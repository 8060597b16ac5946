// Shell completion scripts generated from the commander tree, so a command added anywhere is
// completed without touching this file. The scripts are static: a TAB costs no Node.js start
// (bench/completion.mjs measures it); only profile names are read at completion time, by running
// `llmobs profile list --names`.
//
// What completes, per command: its subcommands (and aliases), its options and the global ones,
// option values and positional arguments. Values come from `.choices()`, or from the value's name:
// `<profile>` profile names, `<file>`/`<x-file>` files, `<dir>`/`<x-dir>` directories,
// `<region>` the Langfuse Cloud regions, `<command...>` command names. Anything else is free text and completes nothing.
import type { Argument, Command, Option } from 'commander';
import { REGION_NAMES } from '../config/regions.js';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: Shell[] = ['bash', 'zsh', 'fish'];

/**
 * `@none` a flag; `@any` free text; `@files`, `@dirs`, `@profiles`; `@commands` command names
 * (the arguments of `help`, one level deeper each); otherwise the words to offer.
 */
export type ValueKind = '@none' | '@any' | '@files' | '@dirs' | '@profiles' | '@commands' | string[];

export interface OptionSpec {
  flags: string[];
  values: ValueKind;
  description: string;
}

export interface ChildSpec {
  name: string;
  aliases: string[];
  description: string;
}

export interface CommandSpec {
  /** Names from the root, canonical (no aliases): '' for the program, 'prompts create'. */
  path: string;
  children: ChildSpec[];
  options: OptionSpec[];
  /** Value kind of each positional argument; a variadic last one repeats. */
  args: ValueKind[];
  variadic: boolean;
}

export function valuesFor(name: string, choices: readonly string[] | undefined): ValueKind {
  if (choices?.length) return [...choices];
  if (name === 'profile') return '@profiles';
  if (name === 'file' || name.endsWith('-file')) return '@files';
  if (name === 'dir' || name.endsWith('-dir')) return '@dirs';
  if (name === 'region') return [...REGION_NAMES];
  if (name === 'command') return '@commands';
  return '@any';
}

function optionSpec(option: Option): OptionSpec {
  const flags = [option.long, option.short].filter((flag): flag is string => Boolean(flag));
  const takesValue = option.required || option.optional;
  const valueName = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  return {
    flags,
    values: takesValue ? valuesFor((valueName?.[1] ?? valueName?.[2] ?? '').replace(/[=:].*$/, ''), option.argChoices) : '@none',
    description: option.description,
  };
}

const isHidden = (command: Command) => (command as unknown as { _hidden?: boolean })._hidden === true;

export function describeTree(program: Command): CommandSpec[] {
  const globals = program.options.filter((option) => !option.hidden).map(optionSpec);
  const help: OptionSpec = { flags: ['--help', '-h'], values: '@none', description: 'show help' };
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string) => {
    const children = command.commands.filter((child) => !isHidden(child));
    const own = path ? command.options.filter((option) => !option.hidden).map(optionSpec) : [];
    const registered = command.registeredArguments;
    specs.push({
      path,
      children: children.map((child) => ({ name: child.name(), aliases: child.aliases(), description: child.description() })),
      options: [...own, ...globals, help],
      args: registered.map((argument: Argument) => valuesFor(argument.name(), argument.argChoices)),
      variadic: registered.at(-1)?.variadic === true,
    });
    for (const child of children) visit(child, path ? `${path} ${child.name()}` : child.name());
  };
  visit(program, '');
  return specs;
}

export function generate(shell: Shell, program: Command): string {
  const specs = describeTree(program);
  switch (shell) {
    case 'bash':
      return bash(specs);
    case 'zsh':
      return zsh(specs);
    case 'fish':
      return fish(specs);
  }
}

/** Where each script lives in the package's completions/ directory. */
export function completionFileName(shell: Shell): string {
  return { bash: 'llmobs.bash', zsh: '_llmobs', fish: 'llmobs.fish' }[shell];
}

const HEADER = '# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.';
const PROFILES_COMMAND = 'command llmobs profile list --names 2>/dev/null';

/** A word a POSIX shell (and fish) reads back unchanged. */
function q(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function kindText(kind: ValueKind): string {
  return Array.isArray(kind) ? kind.join(' ') : kind;
}

function summary(text: string): string {
  const short = text.split(/[.;(]/)[0]!.trim();
  return short.length > 70 ? `${short.slice(0, 67)}...` : short;
}

// ---- the tables bash and zsh share (POSIX `case`, so bash 3.2 reads them too) -------------

function posixTables(specs: CommandSpec[]): string {
  const lines: string[] = [];
  lines.push('# __llmobs_child PATH WORD: the command path WORD leads to from PATH, or nothing.');
  lines.push('__llmobs_child() {');
  lines.push('  case "$1|$2" in');
  for (const spec of specs) {
    for (const child of spec.children) {
      const target = spec.path ? `${spec.path} ${child.name}` : child.name;
      lines.push(`    ${[child.name, ...child.aliases].map((name) => q(`${spec.path}|${name}`)).join('|')}) __llmobs_r=${q(target)} ;;`);
    }
  }
  lines.push("    *) __llmobs_r='' ;;");
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# __llmobs_children PATH: subcommand names and aliases.');
  lines.push('__llmobs_children() {');
  lines.push('  case "$1" in');
  for (const spec of specs) {
    if (spec.children.length) lines.push(`    ${q(spec.path)}) __llmobs_r=${q(spec.children.flatMap((c) => [c.name, ...c.aliases]).join(' '))} ;;`);
  }
  lines.push("    *) __llmobs_r='' ;;");
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# __llmobs_options PATH: every option a command takes.');
  lines.push('__llmobs_options() {');
  lines.push('  case "$1" in');
  for (const spec of specs) lines.push(`    ${q(spec.path)}) __llmobs_r=${q(spec.options.flatMap((o) => o.flags).join(' '))} ;;`);
  lines.push("    *) __llmobs_r='' ;;");
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# __llmobs_value PATH OPTION: what the option takes (nothing for a flag or an unknown option).');
  lines.push('__llmobs_value() {');
  lines.push('  case "$1|$2" in');
  const root = specs.find((spec) => spec.path === '')!;
  const globalFlags = new Set(root.options.flatMap((o) => o.flags));
  for (const spec of specs) {
    for (const option of spec.options) {
      if (option.values === '@none') continue;
      const flags = spec.path && option.flags.every((flag) => globalFlags.has(flag)) ? [] : option.flags;
      if (flags.length) lines.push(`    ${flags.map((flag) => q(`${spec.path}|${flag}`)).join('|')}) __llmobs_r=${q(kindText(option.values))} ;;`);
    }
  }
  lines.push('    *)');
  lines.push('      case "$2" in');
  for (const option of root.options) {
    if (option.values !== '@none') lines.push(`        ${option.flags.map(q).join('|')}) __llmobs_r=${q(kindText(option.values))} ;;`);
  }
  lines.push("        *) __llmobs_r='' ;;");
  lines.push('      esac ;;');
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# __llmobs_arg PATH INDEX: what the positional argument at INDEX (from 0) takes.');
  lines.push('__llmobs_arg() {');
  lines.push('  case "$1|$2" in');
  for (const spec of specs) {
    spec.args.forEach((kind, index) => {
      const last = spec.variadic && index === spec.args.length - 1;
      lines.push(`    ${q(`${spec.path}|${index}`)}${last ? `|${q(`${spec.path}|`)}[0-9]*` : ''}) __llmobs_r=${q(kindText(kind))} ;;`);
    });
  }
  lines.push("    *) __llmobs_r='' ;;");
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  // The walk over the words typed before the cursor is the same in both shells.
  lines.push('# __llmobs_walk WORD...: sets __llmobs_path (the command), __llmobs_nargs (positional');
  lines.push('# arguments so far), __llmobs_pending (an option still waiting for its value) and');
  lines.push('# __llmobs_target (the command named so far by the arguments of help); after "--",');
  lines.push('# __llmobs_dashdash is 1 and every word is an argument.');
  lines.push('__llmobs_walk() {');
  lines.push("  __llmobs_path='' __llmobs_nargs=0 __llmobs_pending='' __llmobs_target='' __llmobs_dashdash=0");
  lines.push('  local word');
  lines.push('  for word in "$@"; do');
  lines.push('    if [ -n "$__llmobs_pending" ]; then __llmobs_pending=\'\'; continue; fi');
  lines.push('    if [ $__llmobs_dashdash = 1 ]; then __llmobs_nargs=$((__llmobs_nargs + 1)); continue; fi');
  lines.push('    case "$word" in');
  lines.push('      --) __llmobs_dashdash=1 ;;');
  lines.push('      --*=*) ;;');
  lines.push('      -?*)');
  lines.push('        __llmobs_value "$__llmobs_path" "$word"');
  lines.push('        [ -n "$__llmobs_r" ] && __llmobs_pending=$word ;;');
  lines.push('      *)');
  lines.push('        __llmobs_r=\'\'');
  lines.push('        [ $__llmobs_nargs = 0 ] && __llmobs_child "$__llmobs_path" "$word"');
  lines.push('        if [ -n "$__llmobs_r" ]; then __llmobs_path=$__llmobs_r; else');
  lines.push('          __llmobs_nargs=$((__llmobs_nargs + 1))');
  lines.push('          __llmobs_arg "$__llmobs_path" 0');
  lines.push('          if [ "$__llmobs_r" = @commands ]; then __llmobs_child "$__llmobs_target" "$word"; __llmobs_target=$__llmobs_r; fi');
  lines.push('        fi ;;');
  lines.push('    esac');
  lines.push('  done');
  lines.push('}');
  return lines.join('\n');
}

function bash(specs: CommandSpec[]): string {
  return `${HEADER}
# Install: copy to ~/.local/share/bash-completion/completions/llmobs, or source it from ~/.bashrc.

${posixTables(specs)}

# Offers the values of KIND for the word CUR (PREFIX is put back in front, for --option=value).
__llmobs_values() {
  local kind=$1 cur=$2 prefix=$3 IFS=$'\\n'
  case "$kind" in
    @any|'') COMPREPLY=() ;;
    @files) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    @profiles) COMPREPLY=($(compgen -W "$(${PROFILES_COMMAND})" -- "$cur")) ;;
    @commands) __llmobs_children "$__llmobs_target"; IFS=$' \t\n'; COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur")) ;;
    *) IFS=$' \t\n'; COMPREPLY=($(compgen -W "$kind" -- "$cur")) ;;
  esac
  if [ -n "$prefix" ]; then
    local i
    for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]="$prefix\${COMPREPLY[i]}"; done
  fi
}

_llmobs() {
  local cword=$COMP_CWORD
  local -a typed=("\${COMP_WORDS[@]}")
  local cur=\${typed[cword]} prefix='' option=''
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
    __llmobs_values "$__llmobs_r" "$cur" ''
    return 0
  fi
  if [ -n "$__llmobs_pending" ]; then
    __llmobs_value "$__llmobs_path" "$__llmobs_pending"
    __llmobs_values "$__llmobs_r" "$cur" ''
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
  __llmobs_values "$__llmobs_r" "$cur" ''
  return 0
}

complete -F _llmobs llmobs
`;
}

function zsh(specs: CommandSpec[]): string {
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

function fish(specs: CommandSpec[]): string {
  const lines: string[] = [];
  const root = specs.find((spec) => spec.path === '')!;
  const globalFlags = new Set(root.options.flatMap((o) => o.flags));
  lines.push('# __llmobs_child PATH WORD: the command path WORD leads to from PATH.');
  lines.push('function __llmobs_child');
  lines.push('    switch "$argv[1]|$argv[2]"');
  for (const spec of specs) {
    for (const child of spec.children) {
      const target = spec.path ? `${spec.path} ${child.name}` : child.name;
      lines.push(`        case ${[child.name, ...child.aliases].map((name) => fishQuote(`${spec.path}|${name}`)).join(' ')}`);
      lines.push(`            echo ${fishQuote(target)}`);
    }
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# __llmobs_value PATH OPTION: what the option takes (nothing for a flag).');
  lines.push('function __llmobs_value');
  lines.push('    switch "$argv[1]|$argv[2]"');
  for (const spec of specs) {
    for (const option of spec.options) {
      if (option.values === '@none') continue;
      const flags = spec.path && option.flags.every((flag) => globalFlags.has(flag)) ? [] : option.flags;
      if (!flags.length) continue;
      lines.push(`        case ${flags.map((flag) => fishQuote(`${spec.path}|${flag}`)).join(' ')}`);
      lines.push(`            echo ${fishQuote(kindText(option.values))}`);
    }
  }
  lines.push("        case '*'");
  lines.push('            switch "$argv[2]"');
  for (const option of root.options) {
    if (option.values === '@none') continue;
    lines.push(`                case ${option.flags.map(fishQuote).join(' ')}`);
    lines.push(`                    echo ${fishQuote(kindText(option.values))}`);
  }
  lines.push('            end');
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# __llmobs_arg PATH INDEX: what the positional argument at INDEX (from 0) takes.');
  lines.push('function __llmobs_arg');
  lines.push('    switch "$argv[1]|$argv[2]"');
  for (const spec of specs) {
    spec.args.forEach((kind, index) => {
      const last = spec.variadic && index === spec.args.length - 1;
      lines.push(`        case ${fishQuote(`${spec.path}|${index}`)}${last ? ` ${fishQuote(`${spec.path}|`)}'*'` : ''}`);
      lines.push(`            echo ${fishQuote(kindText(kind))}`);
    });
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# __llmobs_candidates PATH: "word<TAB>description" for the subcommands, then the options.');
  lines.push('function __llmobs_candidates');
  lines.push('    switch "$argv[1]"');
  for (const spec of specs) {
    lines.push(`        case ${fishQuote(spec.path)}`);
    const children = spec.children.flatMap((child) => [child.name, ...child.aliases].map((name) => `${name}\t${summary(child.description)}`));
    const options = spec.options.flatMap((option) => option.flags.map((flag) => `${flag}\t${summary(option.description)}`));
    if (children.length) lines.push(`            test "$argv[2]" = commands; and printf '%s\\n' ${children.map(fishQuote).join(' ')}`);
    lines.push(`            test "$argv[2]" = options; and printf '%s\\n' ${options.map(fishQuote).join(' ')}`);
  }
  lines.push('    end');
  lines.push('end');

  return `${HEADER}
# Install: copy to ~/.config/fish/completions/llmobs.fish

${lines.join('\n')}

# Prints the candidates of KIND for TOKEN (PREFIX is put in front, for --option=value).
function __llmobs_values --argument-names kind token prefix
    switch "$kind"
        case '@any' ''
            return
        case '@files'
            __fish_complete_path "$token"
        case '@dirs'
            __fish_complete_directories "$token"
        case '@profiles'
            for name in (${PROFILES_COMMAND})
                echo "$prefix$name"
            end
        case '*'
            for value in (string split ' ' -- "$kind")
                echo "$prefix$value"
            end
    end
end

function __llmobs_complete
    set -l typed (commandline -opc)
    set -e typed[1]
    set -l token (commandline -ct)
    set -l path ''
    set -l nargs 0
    set -l pending ''
    set -l dashdash 0
    set -l target ''
    for word in $typed
        if test -n "$pending"
            set pending ''
            continue
        end
        if test $dashdash = 1
            set nargs (math $nargs + 1)
            continue
        end
        switch "$word"
            case '--'
                set dashdash 1
            case '--*=*'
            case '-?*'
                set -l takes (__llmobs_value "$path" "$word")
                if test -n "$takes"
                    set pending "$word"
                end
            case '*'
                set -l next ''
                if test $nargs = 0
                    set next (__llmobs_child "$path" "$word")
                end
                if test -n "$next"
                    set path "$next"
                else
                    set nargs (math $nargs + 1)
                    set -l first (__llmobs_arg "$path" 0)
                    if test "$first" = '@commands'
                        set target (__llmobs_child "$target" "$word")
                    end
                end
        end
    end
    if test -n "$pending"
        __llmobs_values (__llmobs_value "$path" "$pending") "$token" ''
        return
    end
    switch "$dashdash$token"
        case '0--*=*'
            set -l option (string split -m 1 '=' -- "$token")[1]
            set -l value (string split -m 1 '=' -- "$token")[2]
            __llmobs_values (__llmobs_value "$path" "$option") "$value" "$option="
            return
        case '0-*'
            __llmobs_candidates "$path" options
            return
    end
    set -l commands (__llmobs_candidates "$path" commands)
    if test (count $commands) -gt 0; and test $nargs = 0
        printf '%s\\n' $commands
        return
    end
    set -l kind (__llmobs_arg "$path" $nargs)
    if test "$kind" = '@commands'
        __llmobs_candidates "$target" commands
        return
    end
    __llmobs_values "$kind" "$token" ''
end

complete -c llmobs -f -a '(__llmobs_complete)'
`;
}
