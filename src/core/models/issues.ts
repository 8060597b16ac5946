/** One finding about a model definition. `code` is stable and safe to match on. */
export interface DefinitionIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** Dotted path of the offending field in the API (camelCase) shape, when there is one. */
  path?: string;
}

export function error(code: string, message: string, path?: string): DefinitionIssue {
  return path === undefined ? { severity: 'error', code, message } : { severity: 'error', code, message, path };
}

export function warning(code: string, message: string, path?: string): DefinitionIssue {
  return path === undefined ? { severity: 'warning', code, message } : { severity: 'warning', code, message, path };
}

export function hasErrors(issues: readonly DefinitionIssue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}
