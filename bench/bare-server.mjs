// The machine's ceiling: a bare node:http server answering a fixed ~200-byte JSON body.
import { createServer } from 'node:http';

const body = JSON.stringify({
  consumerid: '3f0c2a8e-5b7d-4c1e-9a6f-2d8b7e4c1a90',
  name: 'Bare server reference answer',
  email: 'bench@example.invalid',
  internal_reference: 'BENCH-0001',
  redirect_url: 'https://vendor.example/back',
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
