// The fish script: one completion function (fish evaluates it once per TAB) over tables in fish syntax.
import { fishQuote, HEADER, kindText, PROFILES_COMMAND, summary } from './shared.js';
import type { CommandSpec } from './tree.js';

export function fish(specs: CommandSpec[]): string {
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
