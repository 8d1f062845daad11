// Opens http://127.0.0.1:PORT/index.html in headless Chromium (puppeteer-core and Debian's
// chromium) and prints the page's console lines, one per line, until a line that starts with
// MARKER (printed too); then closes. A message not of console.log (a warning, a resource's
// 404) comes out prefixed "console.<type>: ". Exit status 0 when the marker came, 1 on a timeout
// (SECONDS) or when the browser could not start. Page errors are printed as "PAGEERROR ...".
//   node browse.js PORT MARKER SECONDS [CHROMIUM]
const puppeteer = require('puppeteer-core');
const [port, marker, seconds, exe] = [process.argv[2], process.argv[3], +process.argv[4],
  process.argv[5] || '/usr/bin/chromium'];
(async () => {
  let browser;
  try {
    browser = await puppeteer.launch({executablePath: exe, headless: 'new',
      args: ['--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader']});
  } catch (e) {
    console.log('BROWSER ' + String(e).split('\n')[0]);
    process.exit(1);
  }
  const page = await browser.newPage();
  let done, seen = false;
  const finished = new Promise(r => done = r);
  page.on('console', m => {
    if (seen) return;
    const t = m.text();
    console.log(m.type() === 'log' ? t : 'console.' + m.type() + ': ' + t);
    if (t.startsWith(marker)) { seen = true; done(); }
  });
  page.on('pageerror', e => { if (!seen) console.log('PAGEERROR ' + e); });
  await page.goto('http://127.0.0.1:' + port + '/index.html');
  await Promise.race([finished, new Promise(r => setTimeout(r, seconds * 1000))]);
  await browser.close();
  process.exit(seen ? 0 : 1);
})();
