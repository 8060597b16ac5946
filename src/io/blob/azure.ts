// A blob export to Azure Blob Storage (Langfuse's AZURE_BLOB_STORAGE target): DEST
// `az://CONTAINER/PREFIX/`, the account's URL from --endpoint (default
// https://ACCOUNT.blob.core.windows.net), the key from AZURE_STORAGE_CONNECTION_STRING or
// AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY. Loaded only for such a destination. A file goes up
// as blocks fed from the stream and becomes the blob when its block list is committed, so a failed
// or killed upload leaves the key as it was.
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { Readable } from 'node:stream';
import { CliError, ConfigError, ExitCode } from '../../errors.js';
import { type BlobTarget, destPrefix, uploadCounted } from './target.js';

const BLOCK_BYTES = 4 * 1024 * 1024;
const IN_FLIGHT = 2;

export interface AzureLocation {
  container: string;
  /** '' or ending with '/'. */
  prefix: string;
}

/** `az://CONTAINER/PREFIX`: the container (Azure's naming rule, as Langfuse checks it) and the prefix. */
export function parseAzureUrl(text: string): AzureLocation | { error: string } {
  const match = /^az:\/\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (!match) return { error: 'must be az://CONTAINER/ or az://CONTAINER/PREFIX/' };
  const container = match[1]!;
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(container)) return { error: `"${container}" is not a container name (3 to 63 lower-case letters, digits and single hyphens)` };
  const prefix = destPrefix(match[2]);
  return typeof prefix === 'string' ? { container, prefix } : prefix;
}

interface AzureError {
  statusCode?: number;
  code?: string;
  message?: string;
}

export function azureError(error: unknown, what: string): CliError {
  if (error instanceof CliError) return error;
  const e = (error ?? {}) as AzureError;
  const text = `${what}: ${e.code ?? e.statusCode ?? 'error'}${e.message ? `: ${e.message.split('\n')[0]}` : ''}`;
  if (e.statusCode === 401 || e.statusCode === 403) return new CliError(text, ExitCode.auth, 'storage_auth', { hint: 'The store refused the key: check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY (or AZURE_STORAGE_CONNECTION_STRING).' });
  if (e.code === 'ContainerNotFound') return new ConfigError(`${what}: the container does not exist`, { hint: 'Check the container name and --endpoint, or create the container first.' });
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN'].includes(e.code ?? '')) return new CliError(text, ExitCode.network, 'network', { hint: 'Check --endpoint and the network.' });
  return new CliError(text, ExitCode.api, 'storage_error');
}

export function openAzureTarget(location: AzureLocation, shown: string, options: { endpoint?: string | undefined; env: Record<string, string | undefined> }): BlobTarget {
  const { env } = options;
  let service: BlobServiceClient;
  if (env.AZURE_STORAGE_CONNECTION_STRING && !options.endpoint) {
    service = BlobServiceClient.fromConnectionString(env.AZURE_STORAGE_CONNECTION_STRING);
  } else {
    const account = env.AZURE_STORAGE_ACCOUNT;
    const key = env.AZURE_STORAGE_KEY;
    if (!account || !key) throw new ConfigError(`${shown}: no Azure storage key`, { hint: 'Set AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY (or AZURE_STORAGE_CONNECTION_STRING without --endpoint).' });
    service = new BlobServiceClient(options.endpoint ?? `https://${account}.blob.core.windows.net`, new StorageSharedKeyCredential(account, key));
  }
  const container = service.getContainerClient(location.container);
  const where = (key: string) => `az://${location.container}/${key}`;
  return {
    shown,
    async list(prefix) {
      const keys: string[] = [];
      try {
        for await (const item of container.listBlobsByHierarchy('/', { prefix })) if (item.kind === 'blob') keys.push(item.name);
      } catch (error) {
        throw azureError(error, `cannot list ${where(prefix)}`);
      }
      return keys;
    },
    async read(key, limit) {
      const tooLarge = () => new CliError(`${where(key)} is larger than ${limit} bytes: not a manifest llmobs wrote`, ExitCode.file, 'storage_object');
      let answer;
      try {
        answer = await container.getBlobClient(key).download();
      } catch (error) {
        if ((error as AzureError).statusCode === 404) return undefined;
        throw azureError(error, `cannot read ${where(key)}`);
      }
      const body = answer.readableStreamBody as Readable | undefined;
      if ((answer.contentLength ?? 0) > limit) {
        body?.destroy();
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body ?? []) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          body?.destroy();
          throw tooLarge();
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    put(key, body, contentType) {
      return uploadCounted(
        body,
        (stream) => container.getBlockBlobClient(key).uploadStream(stream, BLOCK_BYTES, IN_FLIGHT, { blobHTTPHeaders: { blobContentType: contentType } }),
        (error) => azureError(error, `cannot write ${where(key)}`),
      );
    },
    async check() {
      try {
        await container.getProperties();
      } catch (error) {
        throw azureError(error, `cannot reach the container ${location.container}`);
      }
    },
    async close() {},
  };
}
