// The prompt core's errors are the CLI's typed errors, so src/cli.ts maps them to exit codes.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../src/errors.js';
import {
  LabelPreconditionError,
  PromptReferenceError,
  PromptTemplateError,
  PromptUsageError,
  PromptVersionNotFoundError,
  isPromptError,
  planPromote,
  validateLabel,
} from '../../../../src/core/prompts/index.js';

describe('prompt core errors', () => {
  it.each([
    [new PromptUsageError('x', 'h'), ExitCode.usage, 'usage'],
    [new PromptTemplateError('x'), ExitCode.usage, 'template'],
    [new LabelPreconditionError('x'), ExitCode.precondition, 'precondition'],
    [new PromptVersionNotFoundError('x'), ExitCode.notFound, 'not-found'],
    [new PromptReferenceError('x'), ExitCode.precondition, 'reference'],
  ] as const)('%s exits %i and keeps its kind', (error, exitCode, kind) => {
    expect(error.exitCode).toBe(exitCode);
    expect(error.kind).toBe(kind);
    expect(isPromptError(error)).toBe(true);
  });

  it('keeps the hint given by the core', () => {
    expect(() => validateLabel('latest')).toThrow(expect.objectContaining({ exitCode: 2, hint: expect.stringMatching(/newest version/) }));
  });

  it('reports a failed expectation as a precondition (exit 9)', () => {
    const versions = [{ version: 1, labels: ['production'] }, { version: 2, labels: ['staging'] }];
    expect(() => planPromote(versions, { from: 'staging', to: 'production', expectCurrent: 2 })).toThrow(
      expect.objectContaining({ exitCode: 9, code: 'precondition_failed' }),
    );
  });

  it('does not claim errors that are not its own', () => {
    expect(isPromptError(new Error('x'))).toBe(false);
  });
});
