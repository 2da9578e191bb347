import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** What the server answers for a name. */
type Zone =
  | { readonly txt: readonly (readonly string[])[] }
  | { readonly addresses: readonly string[] }
  | { readonly rcode: 'SERVFAIL' };

/**
 * An authoritative DNS server on loopback that speaks the real wire protocol over UDP (packets encoded
 * and decoded by dns-packet), so that Svc's own resolver (c-ares through node:dns, pointed at it with
 * `dns.servers`) queries it as it would query any name server. It answers TXT, A and AAAA questions from
 * its zone: the records set for the name, NODATA for a name with none, NXDOMAIN for a name it does not
 * know.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as `SVC_DNS_SERVERS` takes it. */
  readonly address: string;
  /** Sets the TXT records of `name`: each record a list of character-strings (the chunks of RFC 7208 §3.3). */
  setTxt(name: string, records: readonly (readonly string[])[]): void;
  /** Sets the addresses of `name`: A records for the IPv4 ones, AAAA records for the IPv6 ones. */
  setAddresses(name: string, addresses: readonly string[]): void;
  /** Answers SERVFAIL for `name` from now on. */
  failName(name: string): void;
  /** Forgets `name`: NXDOMAIN from now on. */
  remove(name: string): void;
  /** The TXT questions asked so far, by name. */
  readonly asked: readonly string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Zone>();
  const asked: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    const reply = answer(zone, message, asked);
    if (reply !== undefined) socket.send(reply, peer.port, peer.address);
  });
  const port = await bind(socket);
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, records) => zone.set(name.toLowerCase(), { txt: records }),
    setAddresses: (name, addresses) => zone.set(name.toLowerCase(), { addresses }),
    failName: (name) => zone.set(name.toLowerCase(), { rcode: 'SERVFAIL' }),
    remove: (name) => zone.delete(name.toLowerCase()),
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A UDP port on loopback that reads queries and never answers: a name server that timed out. (A port
 * with nothing bound would answer ICMP port-unreachable, which c-ares reports at once as a refusal.)
 */
export async function startSilentDnsServer(): Promise<{ readonly address: string; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  socket.on('message', () => undefined);
  const port = await bind(socket);
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function bind(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port));
  });
}

/** RFC 1035 §4.1.1 response codes this server sends. */
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

function answer(zone: Map<string, Zone>, message: Buffer, asked: string[]): Buffer | undefined {
  let query: dnsPacket.DecodedPacket;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return undefined; // not a DNS message: drop it, as a name server would
  }
  const question = query.questions?.[0];
  if (question === undefined) return undefined;
  const name = question.name.toLowerCase();
  if (question.type === 'TXT') asked.push(name);
  const entry = zone.get(name);
  const rcode = entry === undefined ? RCODE.NXDOMAIN : 'rcode' in entry ? RCODE[entry.rcode] : RCODE.NOERROR;
  const answers: dnsPacket.Answer[] = [];
  if (entry !== undefined && 'txt' in entry && question.type === 'TXT') {
    for (const chunks of entry.txt)
      answers.push({ type: 'TXT', name: question.name, ttl: 60, data: [...chunks] });
  }
  if (entry !== undefined && 'addresses' in entry && (question.type === 'A' || question.type === 'AAAA')) {
    const type = question.type;
    for (const address of entry.addresses.filter((a) => isIP(a) === (type === 'A' ? 4 : 6))) {
      answers.push({ type, name: question.name, ttl: 60, data: address });
    }
  }
  return dnsPacket.encode({
    type: 'response',
    id: query.id ?? 0,
    // The low four bits of the flags are the response code.
    flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | rcode,
    questions: [question],
    answers,
  });
}
