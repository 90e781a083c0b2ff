// Sample content for the page: prompt sections, a conversation, behaviors
// with activations, and a 1 MB document. Made up; deterministic.

export const sections = {
  system:
    'You are Atlas, the support assistant of a small bookshop. Answer in the customer\'s language, ' +
    'briefly and politely. Never invent stock levels or prices: look them up with the tools. ' +
    'If a question is about an order, ask for the order number first.',
  procedure:
    'Refund procedure: 1. Confirm the order number and the items. 2. Check the return window (30 days). ' +
    '3. If inside the window, open a refund in the back office and tell the customer it takes 5 working days. ' +
    '4. If outside, offer store credit instead.',
  knowledge:
    'Opening hours: Monday to Saturday 9:00–19:00, Sunday closed.\n' +
    'Shipping: free above €30 within the EU; 2–4 working days.\n' +
    'Gift cards never expire and can be used online and in the shop.\n' +
    'Signed copies are final sale and cannot be returned.',
  episodes:
    '2025-03-02: the customer asked about a signed copy of "The Glass Archive" and was told it was final sale.\n' +
    '2025-04-18: the customer used a gift card for an online order; delivery took 3 days.',
};

const topics = [
  ['Do you still have the illustrated edition of "Moby-Dick"?', 'Let me check the stock for you. Yes, two copies of the illustrated edition are in stock, at €34.90.'],
  ['Can you ship it to Lisbon?', 'Yes. Shipping inside the EU is free above €30, so this order ships for free and arrives in 2–4 working days.'],
  ['Great. Can I pay with a gift card?', 'Of course — gift cards work online and in the shop, and they never expire.'],
  ['My card has €20 left. What happens to the rest?', 'The €20 is taken from the gift card and you pay the remaining €14.90 by card or bank transfer.'],
  ['OK, and if I don\'t like the edition?', 'You can return it within 30 days for a refund. Only signed copies are final sale.'],
  ['Is the translation by the same person as the 2009 one?', 'The illustrated edition uses the 2009 translation, revised in 2021 with new notes at the end of each chapter.'],
  ['How big is it? It is a gift for my father, he reads in bed.', 'It is a large hardcover, 24 × 31 cm and about 2.1 kg, so perhaps better at a desk than in bed. The paperback weighs 450 g.'],
  ['Hmm. Do you have the paperback in large print?', 'Yes, the large-print paperback is in stock at €18.50. It has the same translation but no illustrations.'],
];

// conversation returns a chat history of n turns (user, assistant, …).
export function conversation(turns = 24) {
  const out = [];
  for (let i = 0; i < turns; i++) {
    const [q, a] = topics[i % topics.length];
    const round = Math.floor(i / topics.length);
    const more = round ? ` (follow-up ${round})` : '';
    out.push({ role: 'user', content: q + more });
    out.push({ role: 'assistant', content: a + ' ' + 'Is there anything else I can help with? '.repeat(1 + (i % 3)) });
  }
  return out;
}

// firstText fills the composer on a first visit, so the page answers before
// anyone types.
export const firstText = 'Hi! I ordered the large-print paperback last week (order 4711). It has not arrived yet — can you check where it is?';

// behaviors: the sample items for planInjection, with activations.
export const behaviors = [
  {
    id: 'no-secrets', name: 'never-commit-secrets', kind: 'constraint', tags: ['security', 'git'], activation: 0.95,
    content: 'Never commit API keys, passwords or tokens. Before every commit, scan the staged diff for strings that look like credentials and stop if one is found.\nMove secrets to the environment or the secret store, and rotate any key that was ever committed.',
    summary: 'Never commit secrets; scan staged diffs for credentials first.',
  },
  {
    id: 'tests-first', name: 'tests-before-merge', kind: 'constraint', tags: ['ci'], activation: 0.4,
    content: 'Every change that reaches main must pass the full test suite in CI.\nA red build is fixed or reverted before anything else is merged.',
    summary: 'Nothing merges with a red build.',
  },
  {
    id: 'small-commits', name: 'small-commits', kind: 'directive', tags: ['git', 'review'], activation: 0.82,
    content: 'Commit in small steps, each one building and passing its tests, with a message that says why the change is made rather than what it does.\nSplit refactors from behaviour changes so that reviewers can read each on its own.',
    summary: 'Small commits; messages say why.',
  },
  {
    id: 'plain-names', name: 'plain-names', kind: 'directive', tags: ['style'], activation: 0.55,
    content: 'Name things for what they are in the domain: budget, history, section — not manager, helper or util.\nPrefer a longer plain name to a short clever one.',
    summary: 'Plain domain names, no "manager"/"util".',
  },
  {
    id: 'measure', name: 'measure-before-optimizing', kind: 'directive', tags: ['performance'], activation: 0.33,
    content: 'Before optimizing, write a benchmark that shows the problem and keep its numbers in the commit message. An optimization that does not move the benchmark is reverted.',
  },
  {
    id: 'release', name: 'release-checklist', kind: 'procedure', tags: ['release'], activation: 0.74,
    content: 'Release: 1. Update CHANGELOG.md with the user-visible changes. 2. Bump the version in package.json and core/api.go together. 3. Tag vX.Y.Z on main. 4. Let CI publish the npm package; never publish from a laptop. 5. Announce in the channel with the changelog link.',
    summary: 'Changelog, bump both versions, tag, let CI publish.',
  },
  {
    id: 'incident', name: 'incident-response', kind: 'procedure', tags: ['ops', 'oncall'], activation: 0.21,
    content: 'Incident: page the on-call, open an incident channel, write a timeline as you go, mitigate first and find the cause later, and hold a blameless review within a week.',
    summary: 'Page, channel, timeline, mitigate, review.',
  },
  {
    id: 'emoji', name: 'no-emoji-in-logs', kind: 'directive', tags: ['style', 'logging'], activation: 0.12,
    content: 'Log messages are plain ASCII sentences without emoji, so that grep and every terminal can read them.',
  },
  {
    id: 'docs', name: 'docs-with-code', kind: 'directive', tags: ['docs'], activation: 0.05,
    content: 'A change to a public API updates its documentation in the same commit.',
  },
];

// document returns about `bytes` bytes (UTF-8) of mixed text: prose, code,
// numbers and some non-Latin scripts, as pasted documents are.
export function document(bytes = 1 << 20) {
  const parts = [
    'The context window is shared by the prompt and the response; what the prompt leaves is what the model may answer with.\n',
    'function budget(window, reserve) {\n\treturn Math.max(0, window - reserve);\n}\n',
    '| model | window | output |\n|---|---:|---:|\n| gpt-4o | 128,000 | 16,384 |\n',
    'Die Anfrage wird gezählt, bevor sie gesendet wird: genau, nicht geschätzt.\n',
    '東京の書店は午前九時に開きます。週末は混雑します。\n',
    '    indented line with trailing spaces   \n\n\n',
    'Ёлки-палки, 12345 + 67890 = 80235; naïve café façade — “quotes” and ‘apostrophes’ it\'s.\n',
    '😀 emoji 🎉 and symbols ∑∫√ in one line.\n',
  ];
  const enc = new TextEncoder();
  const sizes = parts.map((p) => enc.encode(p).length);
  let out = '';
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const k = (i * 7 + (i >> 3)) % parts.length;
    out += parts[k];
    n += sizes[k];
  }
  return out;
}

// chatRequests: the same weather conversation in each request shape
// countChat reads (OpenAI's, Anthropic's Messages, Gemini's
// generateContent, the AI SDK's ModelMessage[]), for the panel's buttons.
export const chatRequests = {
  openai: null, // chatRequest, below
  anthropic: {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'You are a weather bot. Answer in one sentence.',
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp_c":18,"sky":"clear"}' }] },
    ],
    tools: [{
      name: 'get_weather',
      description: 'Current weather for a city',
      input_schema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
    }],
  },
  gemini: {
    model: 'gemini-2.5-flash',
    systemInstruction: { parts: [{ text: 'You are a weather bot. Answer in one sentence.' }] },
    contents: [
      { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 18, sky: 'clear' } } }] },
    ],
    tools: [{
      functionDeclarations: [{
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
      }],
    }],
  },
  aisdk: {
    shape: 'aisdk',
    model: 'gpt-4o',
    system: 'You are a weather bot. Answer in one sentence.',
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: { type: 'json', value: { temp_c: 18, sky: 'clear' } } }] },
    ],
    tools: {
      get_weather: {
        description: 'Current weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
      },
    },
  },
};

// chatRequest: an OpenAI chat request with a tool, a tool call and its
// result, for the countChat panel.
export const chatRequest = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are a weather bot. Answer in one sentence.' },
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18,"sky":"clear"}' },
  ],
  tools: [{
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
    },
  }],
};
chatRequests.openai = chatRequest;
