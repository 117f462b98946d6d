// ssh2's SSH server (it comes with node-ssh), for unit tests that talk to a real server on loopback
// in this process, without root. ssh2 has no type declarations here: the few members used are
// spelled out.
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { EventEmitter } from "node:events";

export type AuthContext = { method: string; password?: string; accept(): void; reject(methods?: string[]): void };
export type ServerClient = EventEmitter & { end(): void };
export type Ssh2Server = EventEmitter & {
  listen(port: number, host: string, done: () => void): void;
  address(): AddressInfo;
  close(): void;
};
type Ssh2 = {
  Server: new (config: { hostKeys: string[] }, onClient: (client: ServerClient) => void) => Ssh2Server;
  utils: {
    generateKeyPairSync(type: "ed25519"): { private: string; public: string };
    parseKey(key: string): { getPublicSSH(): Buffer };
  };
};
export const ssh2 = createRequire(import.meta.url)("ssh2") as Ssh2;
