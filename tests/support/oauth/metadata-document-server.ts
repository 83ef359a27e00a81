// Serves client ID metadata documents over https (a certificate made for 127.0.0.1 here, with
// openssl), as an app serves its own: `https://127.0.0.1:PORT/client/<redirect URI, base64url>.json`
// describes a public client whose one redirect URI is the one in its address. The authorization
// server fetches it trusting exactly this certificate.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface MetadataDocumentServer {
  /** The document's URL (the client ID) for an app whose redirect page is `redirectUri`. */
  clientIdFor(redirectUri: string): string;
  /** A fetch for the authorization server that trusts this server's certificate. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** How many times a document was fetched. */
  readonly served: number;
  close(): Promise<void>;
}

export async function startMetadataDocumentServer(): Promise<MetadataDocumentServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ambi-cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });
  let served = 0;
  let origin = '';
  const server = createServer({ key, cert }, (req, res) => {
    const match = /^\/client\/([A-Za-z0-9_-]+)\.json$/.exec(req.url ?? '');
    if (!match?.[1]) return void res.writeHead(404).end();
    served += 1;
    const redirectUri = Buffer.from(match[1], 'base64url').toString();
    const document = {
      client_id: `${origin}${req.url}`,
      client_name: 'ambi-web tests',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    clientIdFor: (redirectUri) => `${origin}/client/${Buffer.from(redirectUri).toString('base64url')}.json`,
    fetch: (url, init) =>
      new Promise((resolve, reject) => {
        const req = httpsRequest(url, { method: init.method ?? 'GET', ca: cert, headers: { accept: 'application/json' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers }));
          });
        });
        req.on('error', reject);
        req.end();
      }),
    get served() {
      return served;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
