// A prompt's versions as the prompt page reads them (src/server/ui/prompts.ts).

export interface PromptVersion {
  name: string;
  version: number;
  labels: string[];
  type: 'text' | 'chat';
  prompt: unknown;
  config: unknown;
  commitMessage?: string | null;
  createdAt?: string;
}

/** Which version holds a label now. */
export interface LabelHolder {
  label: string;
  version: number;
}

/** A page of /ui/api/prompts/versions. */
export interface VersionsPage {
  versions: PromptVersion[];
  nextCursor: string | null;
  /** With the first page only: how many versions the prompt has, and every label's version. */
  total?: number;
  labels?: LabelHolder[];
}
