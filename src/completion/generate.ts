// Shell completion scripts generated from the commander tree, so they can never disagree with it.
// Dynamic values follow names: an argument or option value called `profile` completes profile
// names (read at completion time), `file` completes files, `dir` directories; `choices()` are used
// as they are.
import type { Argument, Command, Option } from 'commander';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: Shell[] = ['bash', 'zsh', 'fish'];

interface OptionSpec {
  flags: string[];
  takesValue: boolean;
  values: string;
  description: string;
}

interface CommandSpec {
  path: string;
  subcommands: string[];
  options: OptionSpec[];
  args: string[];
  description: string;
}

const PROFILES = '@profiles';
const FILES = '@files';
const DIRS = '@dirs';

function valuesFor(name: string, choices: readonly string[] | undefined): string {
  if (choices?.length) return choices.join(' ');
  if (name === 'profile') return PROFILES;
  if (name === 'file' || name.endsWith('-file')) return FILES;
  if (name === 'dir') return DIRS;
  return '';
}

function optionSpec(option: Option): OptionSpec {
  const flags = [option.long, option.short].filter((flag): flag is string => Boolean(flag));
  const valueName = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  const takesValue = option.required || option.optional;
  return {
    flags,
    takesValue,
    values: takesValue ? valuesFor((valueName?.[1] ?? valueName?.[2] ?? '').replace(/=.*$/, ''), option.argChoices) : '',
    description: option.description,
  };
}

function argValues(argument: Argument): string {
  return valuesFor(argument.name(), argument.argChoices);
}

export function describeTree(program: Command): CommandSpec[] {
  const globals = program.options.filter((option) => !option.hidden).map(optionSpec);
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string) => {
    const children = command.commands.filter((child) => !(child as unknown as { _hidden?: boolean })._hidden);
    specs.push({
      path,
      subcommands: children.flatMap((child) => [child.name(), ...child.aliases()]),
      options: [...(path ? command.options.filter((option) => !option.hidden).map(optionSpec) : []), ...globals, helpOption()],
      args: command.registeredArguments.map(argValues),
      description: command.description(),
    });
    for (const child of children) {
      for (const name of [child.name(), ...child.aliases()]) visit(child, path ? `${path} ${name}` : name);
    }
  };
  visit(program, '');
  return specs;
}

function helpOption(): OptionSpec {
  return { flags: ['--help', '-h'], takesValue: false, values: '', description: 'show help' };
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

const HEADER = '# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// Both bash and zsh use the same tables: command path -> words, "path|option" -> values.
function tables(specs: CommandSpec[], declare: string): string {
  const lines: string[] = [];
  const entry = (key: string, value: string) => `  [${shellQuote(key)}]=${shellQuote(value)}`;
  lines.push(`${declare} _llmobs_subcommands=(`);
  for (const spec of specs) lines.push(entry(spec.path, spec.subcommands.join(' ')));
  lines.push(')');
  lines.push(`${declare} _llmobs_options=(`);
  for (const spec of specs) lines.push(entry(spec.path, spec.options.flatMap((o) => o.flags).join(' ')));
  lines.push(')');
  lines.push(`${declare} _llmobs_option_values=(`);
  for (const spec of specs) {
    for (const option of spec.options) {
      if (!option.takesValue) continue;
      for (const flag of option.flags) lines.push(entry(`${spec.path}|${flag}`, option.values || '@any'));
    }
  }
  lines.push(')');
  lines.push(`${declare} _llmobs_arg_values=(`);
  for (const spec of specs) {
    spec.args.forEach((values, index) => {
      if (values) lines.push(entry(`${spec.path}|${index}`, values));
    });
  }
  lines.push(')');
  return lines.join('\n');
}

function bash(specs: CommandSpec[]): string {
  return `${HEADER}
# Install: source this file from ~/.bashrc, or copy it to a bash-completion directory.

${tables(specs, 'declare -gA')}

_llmobs_complete_values() {
  local values="$1" cur="$2"
  case "$values" in
    @profiles) COMPREPLY=($(compgen -W "$(command llmobs profile list --names 2>/dev/null)" -- "$cur")) ;;
    @files) COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
    @any) COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
  esac
}

_llmobs() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local path="" word i skip=0 nargs=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    if [[ "$word" == -* ]]; then
      [[ "$word" != *=* && -n "\${_llmobs_option_values["$path|$word"]+x}" ]] && skip=1
    elif [[ -n "\${_llmobs_subcommands["\${path:+$path }$word"]+x}" && $nargs -eq 0 ]]; then
      path="\${path:+$path }$word"
    else
      nargs=$((nargs + 1))
    fi
  done
  if ((skip)); then
    _llmobs_complete_values "\${_llmobs_option_values["$path|\${COMP_WORDS[COMP_CWORD-1]}"]}" "$cur"
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${_llmobs_options["$path"]}" -- "$cur"))
  elif [[ -n "\${_llmobs_subcommands["$path"]}" ]]; then
    COMPREPLY=($(compgen -W "\${_llmobs_subcommands["$path"]}" -- "$cur"))
  elif [[ -n "\${_llmobs_arg_values["$path|$nargs"]+x}" ]]; then
    _llmobs_complete_values "\${_llmobs_arg_values["$path|$nargs"]}" "$cur"
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

complete -F _llmobs llmobs
`;
}

function zsh(specs: CommandSpec[]): string {
  return `#compdef llmobs
${HEADER}
# Install: put this file in a directory on $fpath as _llmobs, or source it after compinit.

${tables(specs, 'typeset -gA')}

_llmobs_complete_values() {
  local values="$1"
  case "$values" in
    @profiles) compadd -- \${(f)"$(command llmobs profile list --names 2>/dev/null)"} ;;
    @files) _files ;;
    @dirs) _files -/ ;;
    @any) ;;
    *) compadd -- \${=values} ;;
  esac
}

_llmobs() {
  local path="" word i skip=0 nargs=0
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    if ((skip)); then skip=0; continue; fi
    if [[ "$word" == -* ]]; then
      [[ "$word" != *=* && -n "\${_llmobs_option_values[$path|$word]+x}" ]] && skip=1
    elif [[ -n "\${_llmobs_subcommands[\${path:+$path }$word]+x}" && $nargs -eq 0 ]]; then
      path="\${path:+$path }$word"
    else
      nargs=$((nargs + 1))
    fi
  done
  local cur="\${words[CURRENT]}"
  if ((skip)); then
    _llmobs_complete_values "\${_llmobs_option_values[$path|\${words[CURRENT-1]}]}"
  elif [[ "$cur" == -* ]]; then
    compadd -- \${=_llmobs_options[$path]}
  elif [[ -n "\${_llmobs_subcommands[$path]}" ]]; then
    compadd -- \${=_llmobs_subcommands[$path]}
  elif [[ -n "\${_llmobs_arg_values[$path|$nargs]+x}" ]]; then
    _llmobs_complete_values "\${_llmobs_arg_values[$path|$nargs]}"
  else
    _files
  fi
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _llmobs "$@"
else
  compdef _llmobs llmobs
fi
`;
}

function fish(specs: CommandSpec[]): string {
  const lines: string[] = [
    HEADER,
    '# Install: copy to ~/.config/fish/completions/llmobs.fish',
    '',
    'function __llmobs_path --description "the llmobs command path typed so far"',
    '    set -l tokens (commandline -opc)',
    '    set -e tokens[1]',
    '    set -l path',
    '    set -l skip 0',
    '    for token in $tokens',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $token',
    '            case "-*"',
    '                if contains -- $token $__llmobs_value_flags; and not string match -q -- "*=*" $token',
    '                    set skip 1',
    '                end',
    '            case "*"',
    '                set -l next (string join " " $path $token)',
    '                if contains -- $next $__llmobs_paths',
    '                    set path $path $token',
    '                else',
    '                    break',
    '                end',
    '        end',
    '    end',
    '    string join " " $path',
    'end',
    '',
    'function __llmobs_at --argument-names want',
    '    test (__llmobs_path) = "$want"',
    'end',
    '',
  ];
  const paths = specs.map((spec) => spec.path).filter(Boolean);
  lines.push(`set -g __llmobs_paths ${paths.map(shellQuote).join(' ')}`);
  const valueFlags = new Set(specs.flatMap((spec) => spec.options.filter((o) => o.takesValue).flatMap((o) => o.flags)));
  lines.push(`set -g __llmobs_value_flags ${[...valueFlags].sort().map(shellQuote).join(' ')}`);
  lines.push('complete -c llmobs -f');
  for (const spec of specs) {
    const condition = `-n ${shellQuote(`__llmobs_at ${shellQuote(spec.path)}`)}`;
    const byName = new Map<string, string>();
    for (const child of specs) {
      if (child.path && child.path.split(' ').slice(0, -1).join(' ') === spec.path) {
        byName.set(child.path.split(' ').at(-1)!, child.description);
      }
    }
    for (const [name, description] of byName) {
      lines.push(`complete -c llmobs ${condition} -a ${shellQuote(name)} -d ${shellQuote(firstSentence(description))}`);
    }
    for (const option of spec.options) {
      const long = option.flags.find((flag) => flag.startsWith('--'))?.slice(2);
      const short = option.flags.find((flag) => /^-[^-]$/.test(flag))?.slice(1);
      let line = `complete -c llmobs ${condition}`;
      if (long) line += ` -l ${long}`;
      if (short) line += ` -s ${short}`;
      if (option.takesValue) {
        line += ' -r';
        if (option.values === PROFILES) line += ` -a ${shellQuote('(command llmobs profile list --names 2>/dev/null)')}`;
        else if (option.values === FILES || option.values === DIRS) line += ' -F';
        else if (option.values) line += ` -a ${shellQuote(option.values)}`;
      }
      lines.push(`${line} -d ${shellQuote(firstSentence(option.description))}`);
    }
    const first = spec.args[0];
    if (first && spec.subcommands.length === 0) {
      if (first === PROFILES) lines.push(`complete -c llmobs ${condition} -a ${shellQuote('(command llmobs profile list --names 2>/dev/null)')}`);
      else if (first === FILES || first === DIRS) lines.push(`complete -c llmobs ${condition} -F`);
      else lines.push(`complete -c llmobs ${condition} -a ${shellQuote(first)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function firstSentence(text: string): string {
  const short = text.split(/[.;(]/)[0]!.trim();
  return short.length > 80 ? `${short.slice(0, 77)}...` : short;
}

/** Where each script lives in the package's completions/ directory. */
export function completionFileName(shell: Shell): string {
  return { bash: 'llmobs.bash', zsh: '_llmobs', fish: 'llmobs.fish' }[shell];
}
