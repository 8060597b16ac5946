// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one asks the command to stop at
// the next safe point (it then reports how to continue); a second one ends the process at once,
// as the default handler does. Installed only while the command runs.

export const INTERRUPTED = Symbol('interrupted');

export interface Interruption {
  /** Resolves with INTERRUPTED on the first signal. */
  readonly signal: Promise<typeof INTERRUPTED>;
  readonly interrupted: boolean;
  /** The signal's name, once one arrived. */
  readonly name: string | undefined;
  dispose(): void;
}

export function watchInterruption(onFirst?: (name: string) => void): Interruption {
  let resolve!: (value: typeof INTERRUPTED) => void;
  const signal = new Promise<typeof INTERRUPTED>((r) => (resolve = r));
  const state = { interrupted: false, name: undefined as string | undefined };
  const handler = (name: NodeJS.Signals) => {
    state.interrupted = true;
    state.name = name;
    dispose();
    onFirst?.(name);
    resolve(INTERRUPTED);
  };
  const dispose = () => {
    process.removeListener('SIGINT', handler);
    process.removeListener('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return {
    signal,
    get interrupted() {
      return state.interrupted;
    },
    get name() {
      return state.name;
    },
    dispose,
  };
}
