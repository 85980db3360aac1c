import json
import xml.etree.ElementTree as ET
from xml.dom import minidom

from ledger import entries


def run(args, out):
    rows = [{'date': d.isoformat(), 'account': a, 'amount': str(m)}
            for d, a, m in entries.read(args.file)]
    if args.format == 'json':
        json.dump(rows, out, indent=1)
        out.write('\n')
        return 0
    root = ET.Element('ledger')
    for row in rows:
        ET.SubElement(root, 'entry', row)
    out.write(minidom.parseString(ET.tostring(root)).toprettyxml(indent=' '))
    return 0
