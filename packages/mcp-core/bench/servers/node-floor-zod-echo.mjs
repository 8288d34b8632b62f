// The floor with zod's share of a start added: zod imported and the echo
// tool's schema built and turned into JSON Schema, as a server on zod does
// before it answers, then the same constant answers as node-floor-echo.mjs.
import * as z from 'zod';
import './node-floor-echo.mjs';

z.toJSONSchema(z.object({ text: z.string() }), { target: 'draft-2020-12' });
