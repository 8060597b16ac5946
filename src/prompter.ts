// Interactive questions, asked on stderr so stdout stays data. Only used when Context.interactive.
import type { Io } from './types.js';
import { UsageError } from './errors.js';

export interface Choice<T extends string> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(options: { message: string; default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(options: { message: string; validate?: (value: string) => true | string }): Promise<string>;
  select<T extends string>(options: { message: string; choices: Array<Choice<T>>; default?: T }): Promise<T>;
  confirm(options: { message: string; default?: boolean }): Promise<boolean>;
}

export class InquirerPrompter implements Prompter {
  constructor(private readonly io: Io) {}

  private get context() {
    return { input: this.io.stdin, output: this.io.stderr as NodeJS.WritableStream, clearPromptOnDone: false };
  }

  async input(options: { message: string; default?: string; validate?: (value: string) => true | string }): Promise<string> {
    const { input } = await import('@inquirer/prompts');
    return cancellable(() => input(options, this.context));
  }

  async password(options: { message: string; validate?: (value: string) => true | string }): Promise<string> {
    const { password } = await import('@inquirer/prompts');
    return cancellable(() => password({ ...options, mask: '*' }, this.context));
  }

  async select<T extends string>(options: { message: string; choices: Array<Choice<T>>; default?: T }): Promise<T> {
    const { select } = await import('@inquirer/prompts');
    return cancellable(() => select<T>(options, this.context));
  }

  async confirm(options: { message: string; default?: boolean }): Promise<boolean> {
    const { confirm } = await import('@inquirer/prompts');
    return cancellable(() => confirm(options, this.context));
  }
}

async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') {
      throw new UsageError('cancelled');
    }
    throw error;
  }
}
