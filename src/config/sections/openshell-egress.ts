// The egress keys of the `openshell` section: hosts approved or rejected for every sandbox (written by the
// approvals and unblock routes with `always`), and the large-upload guard of the egress proxy. Spread into
// OpenshellSection (src/config/schema.ts) so this part of the section is edited here alone.
import Type from 'typebox';

const Hosts = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { default: [], maxItems: 1024, description });

export const OpenshellEgressKeys = {
  egress: Type.Object(
    {
      unblocked: Hosts('Hosts approved with always: every sandbox may reach them. Written by approvals and `POST /api/v1/sandbox/egress/unblock`.'),
      block: Hosts('Hosts rejected with always: every sandbox is refused them. Written by approvals.'),
      large_upload_bytes: Type.Integer({
        minimum: 1, default: 10485760,
        description: 'Bytes sent to a destination first seen in this session after which the upload counts as large (default 10 MiB).',
      }),
      large_upload_block: Type.Boolean({
        default: true,
        description: 'A large upload cuts the connection and blocks later uploads to that host (`egress.blocked`, category `large_upload`); ' +
          'false only reports it (`egress.large_upload`).',
      }),
      large_upload_exempt: Hosts('Hosts a large upload to is only reported, never cut.'),
    },
    { additionalProperties: false, default: {}, description: 'Egress of sandboxes through the egress proxy.' },
  ),
};
