#!/usr/bin/env node
'use strict';
// Post a one-message build summary to the user's Slack incoming webhook.
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    status: { type: 'string' },
    title: { type: 'string' },
    summary: { type: 'string', default: '' },
    link: { type: 'string' },
  },
});

const hook = process.env.SLACK_WEBHOOK_URL;
if (!hook) {
  console.error('SLACK_WEBHOOK_URL is not set');
  process.exit(2);
}
const url = new URL(hook);
if (url.protocol !== 'https:' || url.hostname !== 'hooks.slack.com') {
  console.error('SLACK_WEBHOOK_URL must be an https://hooks.slack.com/ URL');
  process.exit(2);
}

const icon = { passed: ':white_check_mark:', failed: ':x:', cancelled: ':heavy_minus_sign:' }[values.status] ?? ':grey_question:';
const text = [`${icon} *${values.title ?? 'build'}* ${values.status ?? ''}`, values.summary, values.link ? `<${values.link}|details>` : '']
  .filter(Boolean)
  .join('\n')
  .slice(0, 2000);

fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) })
  .then((res) => {
    if (!res.ok) throw new Error(`Slack answered HTTP ${res.status}`);
    console.log('sent');
  })
  .catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
