// A static file server for a love.js build (spec/web/run.sh): node serve.js DIR; listens on a
// free port of 127.0.0.1 and prints "port N". .wasm goes out as application/wasm.
const http = require('http'), fs = require('fs'), path = require('path');
const root = path.resolve(process.argv[2]);
const types = {'.html': 'text/html', '.js': 'application/javascript', '.wasm': 'application/wasm',
  '.data': 'application/octet-stream', '.css': 'text/css', '.love': 'application/octet-stream'};
const server = http.createServer((req, res) => {
  let p = path.join(root, decodeURIComponent(req.url.split('?')[0]));
  if (!p.startsWith(root)) { res.writeHead(403); res.end(); return; }
  if (p.endsWith('/')) p += 'index.html';
  fs.readFile(p, (e, d) => {
    if (e) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, {'Content-Type': types[path.extname(p)] || 'application/octet-stream'});
    res.end(d);
  });
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
