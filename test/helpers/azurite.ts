// A real Azure Blob Storage emulator for the tests: Azurite's blob service in its own process, in
// memory, on a random loopback port, with its well-known development account and the containers
// asked for.
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import type { BlobStore } from './blob-reader.js';

export const AZURITE_ACCOUNT = { AZURE_STORAGE_ACCOUNT: 'devstoreaccount1', AZURE_STORAGE_KEY: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==' };
const MAIN = join(import.meta.dirname, '..', '..', 'node_modules', 'azurite', 'dist', 'src', 'blob', 'main.js');

export interface Azurite {
  /** The account's URL, for --endpoint. */
  endpoint: string;
  store(container: string): BlobStore;
  close(): Promise<void>;
}

export async function startAzurite(containers: string[]): Promise<Azurite> {
  const child: ResultPromise = execa(process.execPath, [MAIN, '--inMemoryPersistence', '--blobHost', '127.0.0.1', '--blobPort', '0', '--skipApiVersionCheck', '--disableProductStyleUrl'], { reject: false, stdin: 'ignore' });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    void child.then((result) => reject(new Error(`azurite exited: ${String(result.stderr)}`)));
  });
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT.AZURE_STORAGE_ACCOUNT}`;
  const service = new BlobServiceClient(endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT.AZURE_STORAGE_ACCOUNT, AZURITE_ACCOUNT.AZURE_STORAGE_KEY));
  for (const name of containers) await service.getContainerClient(name).create();
  return {
    endpoint,
    store: (name) => {
      const container = service.getContainerClient(name);
      return {
        async list(prefix) {
          const keys: string[] = [];
          for await (const blob of container.listBlobsFlat({ prefix })) keys.push(blob.name);
          return keys;
        },
        get: async (key) => container.getBlobClient(key).downloadToBuffer(),
      };
    },
    async close() {
      child.kill('SIGTERM');
      await child;
    },
  };
}
