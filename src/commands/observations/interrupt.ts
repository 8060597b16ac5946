// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one asks the command to stop at
// the next safe point (it then reports how to continue); a second one ends the process at once,
// as the default handler does. Installed only while the command runs.

export const INTERRUPTED = Symbol('interrupted');

export interface Interruption {
  /**
   * `promise`'s outcome, or INTERRUPTED as soon as a signal arrives. Only the pending race holds
   * a listener (a long-lived promise raced against every page would keep every page alive).
   */
  race<T>(promise: Promise<T>): Promise<T | typeof INTERRUPTED>;
  readonly interrupted: boolean;
  /** The signal's name, once one arrived. */
  readonly name: string | undefined;
  dispose(): void;
}

export function watchInterruption(onFirst?: (name: string) => void): Interruption {
  const state = { interrupted: false, name: undefined as string | undefined, wake: undefined as (() => void) | undefined };
  const handler = (name: NodeJS.Signals) => {
    state.interrupted = true;
    state.name = name;
    dispose();
    onFirst?.(name);
    state.wake?.();
  };
  const dispose = () => {
    process.removeListener('SIGINT', handler);
    process.removeListener('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return {
    race<T>(promise: Promise<T>) {
      if (state.interrupted) return Promise.resolve(INTERRUPTED);
      return new Promise<T | typeof INTERRUPTED>((resolve, reject) => {
        state.wake = () => resolve(INTERRUPTED);
        promise.then(
          (value) => {
            state.wake = undefined;
            resolve(value);
          },
          (error: unknown) => {
            state.wake = undefined;
            reject(error);
          },
        );
      });
    },
    get interrupted() {
      return state.interrupted;
    },
    get name() {
      return state.name;
    },
    dispose,
  };
}
