// The tables and the word walk bash and zsh share, written as POSIX `case` statements so that
// bash 3.2 reads them too and no associative array (whose empty key bash rejects) is needed.
import { kindText, q } from './shared.js';
import type { CommandSpec } from './tree.js';

export function posixTables(specs: CommandSpec[]): string {
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

