// What the help of each labels verb says of how labels are read and moved.
export const READING_LABELS = `
  Reading labels: the API does not say which version holds which label in one
  answer, so llmobs lists the prompt once and fetches the version of each label
  (1 + number of labels requests, 4 at a time). Moving a label is one PATCH
  /api/public/v2/prompts/{name}/versions/{version}.`;
