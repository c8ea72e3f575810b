// The `openshell.egress` object: how the sandbox egress proxy treats large uploads, and the hosts a human
// approved or rejected for every sandbox (`always`). The egress proxy (src/sandbox/egress/) reads all of it; the
// approvals (src/sandbox/approvals/) write `unblocked` and `block`. Its own file so that this section is edited
// here alone.
import Type from 'typebox';

const MiB = 1024 * 1024;

const HostList = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s/]+$' }), { default: [], maxItems: 4096, description });

export const OpenshellEgressSection = Type.Object(
  {
    large_upload_bytes: Type.Integer({
      minimum: 1024, maximum: 64 * 1024 * MiB, default: 10 * MiB,
      description: 'Bytes a sandbox may send to one destination first seen in its session before the upload counts as ' +
        'large (default 10 MiB). Every destination is first seen in the session it is first reached in: the counts start ' +
        'again with each session.',
    }),
    large_upload_block: Type.Boolean({
      default: true,
      description: 'Cut an upload as it crosses `large_upload_bytes` and refuse later connections to that host ' +
        '(`egress.blocked`, category `large_upload`). `false`: only report it (`egress.large_upload` with `bytes_up`).',
    }),
    large_upload_exempt: HostList('Hosts (exact, or `*.suffix` for any subdomain) whose large uploads are only reported, never cut.'),
    unblocked: HostList('Hosts approved with `always`, allowed for every sandbox; written by approvals and `POST /egress/unblock`.'),
    block: HostList('Hosts rejected with `always`, refused for every sandbox; written by approvals.'),
  },
  { additionalProperties: false, default: {}, description: 'The sandbox egress proxy: large uploads and the hosts approved or rejected for every sandbox.' },
);
