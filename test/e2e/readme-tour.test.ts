// The README's ten-minute tour, run as a reader runs it: every shell block of the section, in
// order, with bash, from an empty directory and a fresh HOME, with `llmobs` on the PATH being the
// built binary. The block that starts `llmobs server` runs in the background (on a free port) the
// way the tour's first terminal does. So the README cannot drift from what llmobs does.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const README = join(import.meta.dirname, '..', '..', 'README.md');

/** The ```sh blocks of the README section with this heading, in order. */
export function tourBlocks(markdown: string, heading = '## A ten-minute tour'): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}" section`);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

let server: ResultPromise | undefined;

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.catch(() => {});
  }
});

describe('the README tour', () => {
  // About 20 commands, one after the other: give a busy machine time.
  it('runs from a clean start, block by block, as written', { timeout: 180_000 }, async () => {
    const blocks = tourBlocks(readFileSync(README, 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(6);

    const root = tempDir('llmobs-tour-');
    const bin = join(root, 'bin');
    const work = join(root, 'work');
    await execa('mkdir', ['-p', bin, work, join(root, 'home')]);
    writeFileSync(join(bin, 'llmobs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'llmobs'), 0o755);
    const env = { HOME: join(root, 'home'), PATH: `${bin}:${process.env.PATH}`, LANG: 'C.UTF-8' };

    const outputs: Array<{ block: string; stdout: string; stderr: string }> = [];
    for (const block of blocks) {
      const lines = block.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
      if (lines.length === 1 && lines[0]!.startsWith('llmobs server')) {
        // The first terminal: started in the background, on a free port unless the tour names one.
        const command = /--port\b/.test(lines[0]!) ? lines[0]! : `${lines[0]} --port 0`;
        server = execa('bash', ['-c', `exec ${command}`], { cwd: work, env, extendEnv: false, reject: false });
        await new Promise<void>((resolve, reject) => {
          let text = '';
          server!.stdout!.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (/Profile "[^"]+" points at it and is active/.test(text)) resolve();
          });
          server!.on('exit', (code) => reject(new Error(`"${command}" exited with ${code}: ${text}`)));
        });
        continue;
      }
      const result = await execa('bash', ['-euo', 'pipefail', '-c', block], { cwd: work, env, extendEnv: false, reject: false, timeout: 60_000 });
      outputs.push({ block, stdout: String(result.stdout), stderr: String(result.stderr) });
      expect(result.exitCode, `this README block failed:\n${block}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    }
    expect(server, 'the tour starts a server').toBeDefined();

    // A few facts the tour's text promises.
    const output = (command: string) => outputs.find((entry) => entry.block.includes(command))!;
    expect(output('llmobs doctor').stdout).toContain('Everything looks right.');
    expect(output('labels promote').stderr).toContain("Moved 'production' of 'team/summary' from version 1 to version 2");
    expect(output('labels set').stdout).toMatch(/^1\tproduction\t/m);
    const estimate = output('llmobs estimate').stdout;
    expect(estimate).toContain('acme-large (custom,');
    expect(estimate).toMatch(/Definitions\tthe project's definitions at http:\/\/127\.0\.0\.1:\d+ \(profile "tour"/);
    expect(estimate).toContain('Definitions\tthe built-in catalogue');
    expect(output('profile remove').stderr).toContain('Removed profile "tour"');
  });

  it('finds the blocks of a section and nothing outside it', () => {
    const markdown = '# x\n\n## A ten-minute tour\n\n```sh\none\n```\ntext\n```yaml\nno: 1\n```\n```sh\ntwo\nthree\n```\n\n## Next\n\n```sh\nfour\n```\n';
    expect(tourBlocks(markdown)).toEqual(['one\n', 'two\nthree\n']);
    expect(() => tourBlocks('# nothing')).toThrow('has no "## A ten-minute tour" section');
  });
});
