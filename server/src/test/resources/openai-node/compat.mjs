// Drives the gateway with the official OpenAI Node client (the version OpenAiNodeClientTest pins) the way ordinary
// apps do, and prints what it saw as one JSON object: the test asserts on it. Env: CLAWGATE_URL, CLAWGATE_KEY.
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: process.env.CLAWGATE_URL, apiKey: process.env.CLAWGATE_KEY, maxRetries: 0 });
const out = {};

const list = await client.models.list();
out.models = list.data.map((m) => m.id);
out.retrieved = (await client.models.retrieve('clawgate')).id;

// a stateless call: the whole conversation, system message included, and no session id
const plain = await client.chat.completions.create({
  model: 'clawgate',
  messages: [
    { role: 'system', content: 'Answer like a pirate.' },
    { role: 'user', content: 'my name is Ada' },
    { role: 'assistant', content: 'Ahoy Ada' },
    { role: 'user', content: 'what is my name?' },
  ],
});
out.stateless = { id: plain.id, object: plain.object, created: plain.created, fingerprint: plain.system_fingerprint,
  content: plain.choices[0].message.content, finish: plain.choices[0].finish_reason, usage: plain.usage };

// a session: the user field; the gateway keeps the history
await client.chat.completions.create({ model: 'clawgate', user: 'node-user', messages: [{ role: 'user', content: 'first in session' }] });
const second = await client.chat.completions.create({ model: 'clawgate', user: 'node-user',
  messages: [{ role: 'user', content: 'second in session' }] });
out.session = { content: second.choices[0].message.content };

// streaming with the usage chunk
const stream = await client.chat.completions.create({ model: 'clawgate', stream: true, stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'stream this' }] });
let text = '';
let usage = null;
let chunks = 0;
for await (const chunk of stream) {
  chunks++;
  if (chunk.choices.length > 0 && chunk.choices[0].delta.content) text += chunk.choices[0].delta.content;
  if (chunk.usage) usage = chunk.usage;
}
out.stream = { text, usage, chunks };

// the Responses API, plain, then continued by previous_response_id
const r1 = await client.responses.create({ model: 'clawgate', instructions: 'Be brief.', input: 'hello responses' });
out.response = { id: r1.id, status: r1.status, text: r1.output_text, usage: r1.usage };
const r2 = await client.responses.create({ model: 'clawgate', input: 'and again', previous_response_id: r1.id });
out.followUp = { id: r2.id, text: r2.output_text, previous: r2.previous_response_id };

// the Responses API, streaming
const events = await client.responses.create({ model: 'clawgate', input: 'stream a response', stream: true });
const types = [];
let deltas = '';
let completed = null;
for await (const e of events) {
  types.push(e.type);
  if (e.type === 'response.output_text.delta') deltas += e.delta;
  if (e.type === 'response.completed') completed = e.response;
}
out.responseStream = { types, deltas, text: completed && completed.output_text === undefined
  ? completed.output[0].content[0].text : completed && completed.output[0].content[0].text, usage: completed && completed.usage };

// errors: the client's own error classes, from OpenAI's envelope and status codes
async function failure(call) {
  try {
    await call();
    return { thrown: false };
  } catch (e) {
    return { thrown: true, name: e.constructor.name, status: e.status, code: e.code ?? null, type: e.type ?? null, message: e.message };
  }
}
out.unknownModel = await failure(() => client.models.retrieve('no-such-model'));
out.unknownChatModel = await failure(() => client.chat.completions.create({ model: 'no-such-model',
  messages: [{ role: 'user', content: 'hi' }] }));
out.badRequest = await failure(() => client.chat.completions.create({ model: 'clawgate', messages: [] }));
out.wrongKey = await failure(() => new OpenAI({ baseURL: process.env.CLAWGATE_URL, apiKey: 'wrong-key', maxRetries: 0 })
  .models.list());

console.log(JSON.stringify(out));
