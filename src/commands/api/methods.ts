// The HTTP methods llmobs api sends: its -X choices (in the help, so the verb file loads this),
// and what its request building accepts.

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type Method = (typeof METHODS)[number];
