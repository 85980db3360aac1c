import asyncio
import email.utils
import http.client
import urllib.request


async def _get(url):
    loop = asyncio.get_running_loop()
    with await loop.run_in_executor(None, urllib.request.urlopen, url) as response:
        return response.status, response.headers, await loop.run_in_executor(None, response.read)


def run(args, out):
    status, headers, body = asyncio.run(_get(args.url))
    if status != http.client.OK:
        return 1
    when = email.utils.parsedate_to_datetime(headers['Date']) if headers['Date'] else None
    out.write(f'{len(body)} bytes, {when}\n')
    return 0
