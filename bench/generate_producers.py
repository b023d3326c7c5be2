#!/usr/bin/env python3
"""Writes the second benchmark corpus: an iCalendar file as real producers write it.

    generate_producers.py COUNT > producers.ics
    generate_producers.py COUNT --whole-character-folds > same.ics   (the same text, folded only
                                                                      between characters)
    generate_producers.py --tsv-from producers.jsonl > rows.tsv   (the rows remconv stores, for
                                                                   bench/sqlite_insert.c)

bench/generate.py's corpus is remconv's own output (its JSON Lines turned into .ics by remconv):
short notes, lines folded where remconv folds them, the shapes remconv writes. This one is
written the way the producers of the shared corpus write (each VCALENDAR is one list, and each
list is one producer's, in turn):

- Apple Reminders / iCloud: X-WR-CALNAME, X-APPLE-CALENDAR-COLOR, upper-case UUIDs,
  X-APPLE-SORT-ORDER, DTSTART == DUE with a TZID, a VALARM on most dated items with an absolute
  `TRIGGER;VALUE=DATE-TIME` plus `UID` and `X-WR-ALARMUID`, some location alarms
  (X-APPLE-STRUCTURED-LOCATION, the 1976 sentinel trigger), subtasks (RELATED-TO), the
  VTIMEZONE after the VTODOs;
- Nextcloud Tasks: floating CREATED/DTSTAMP, short lower-case UIDs, PRIORITY:0,
  PERCENT-COMPLETE, X-OC-HIDESUBTASKS, CATEGORIES, CLASS, RELATED-TO subtasks, floating and
  all-day DUE;
- tasks.org (ical4j): numeric UIDs, X-APPLE-SORT-ORDER, CATEGORIES, RELATED-TO subtasks,
  markdown notes, zoned DUE with its VTIMEZONE, alarms relative to the due time;
- Thunderbird: the VTIMEZONE before the VTODOs, DTSTART and DUE with TZID, X-MOZ-GENERATION,
  X-MOZ-LASTACK, SEQUENCE, VALARMs relative (RELATED=END) or absolute;
- Outlook: METHOD:PUBLISH, Windows TZIDs (`W. Europe Standard Time`, …) with Outlook's
  VTIMEZONEs, CLASS, X-MICROSOFT-CDO-*, X-MS-OLK-*, `SUMMARY;LANGUAGE=…`, long UIDs, and the
  note twice: DESCRIPTION and a long HTML `X-ALT-DESC;FMTTYPE=text/html`.

Notes are long (a hundred to a few thousand characters) and written in many scripts (Latin with
diacritics, Cyrillic, Greek, Arabic, Hebrew, CJK, Hangul, Devanagari, Thai) with emoji,
ZWJ sequences, flags and skin tones among them. Lines end in CRLF and are folded at 75 octets;
four producers in five fold at the octet, in the middle of a multi-byte character or an emoji
when it falls there (RFC 5545 allows it, and real producers do it), Nextcloud's folds keep
characters whole. The same COUNT always gives the same bytes (bench/generate.py's linear
congruential generator, no `random`).

The TSV for the SQLite floor is made from remconv's own reading of this file
(`remconv convert producers.ics --to jsonl`, then `--tsv-from`), through bench/generate.py's
`tsv_row`: the floor inserts the rows an import of this file stores.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import Sequence, tsv_row  # noqa: E402

LIST_SIZE = 200
PRODUCERS = ["apple", "nextcloud", "tasksorg", "thunderbird", "outlook"]

SENTENCES = {
    "latin": [
        "Überweisung für die Miete prüfen und den Dauerauftrag ändern, bevor Jürgen zurückkommt.",
        "Réserver le déjeuner à Besançon ; n'oublie pas la crème brûlée ni le pâté de campagne.",
        "Año nuevo: comprar turrón, jamón y mazapán en Cádiz antes del sábado por la mañana.",
        "Zażółć gęślą jaźń — przypomnienie o spotkaniu w środę o dziewiątej w Łodzi.",
        "Připomínka na úterý: přinést dokumenty, podepsat smlouvu a zaplatit zálohu.",
        "Skriv ned øl, brød og smør før fredag, og husk å ringe til Åse om hytta.",
        "Não esqueça: levar o passaporte, a certidão e o comprovante de endereço à repartição.",
        "Kaçırma: toplantı notlarını gözden geçir ve Çarşamba gününe kadar gönder.",
        "Hãy nhớ gọi điện cho bác sĩ và đặt lịch hẹn mới vào tuần sau.",
    ],
    "cyrillic": [
        "Позвонить в банк и уточнить перевод до пятницы, иначе придётся платить комиссию.",
        "Купить молоко, хлеб и яйца; забрать посылку на почте у дома.",
        "Підготувати звіт для наради в понеділок і надіслати його всім учасникам.",
        "Да се обадя на зъболекаря и да си запиша нов час за следващата седмица.",
    ],
    "greek": [
        "Να πάρω τηλέφωνο τον γιατρό για το ραντεβού της Τρίτης και να φέρω τις εξετάσεις.",
        "Αγορά ψωμιού, ελαιολάδου και φέτας από τη λαϊκή αγορά του Σαββάτου.",
    ],
    "arabic": [
        "تذكير: دفع فاتورة الكهرباء قبل نهاية الشهر وإرسال الإيصال إلى المحاسب.",
        "الاتصال بالمكتب لتأكيد موعد الاجتماع يوم الأحد في الساعة العاشرة صباحاً.",
        "شراء الحليب والخبز والبيض في طريق العودة إلى المنزل.",
    ],
    "hebrew": [
        "לקנות חלב ולחם בדרך הביתה מהעבודה, ולא לשכוח את הקפה.",
        "להתקשר לרופא השיניים ולקבוע תור חדש לשבוע הבא.",
    ],
    "cjk": [
        "明日の会議の資料を準備して、部長に送ること。印刷は十部。",
        "买牛奶、面包和鸡蛋；下午三点去银行办理转账，记得带身份证。",
        "다음 주 월요일까지 보고서를 제출하고 팀장님께 메일을 보내세요.",
        "東京駅で新幹線の切符を受け取る。座席は窓側、禁煙車。",
        "記得繳交電費帳單，並把收據寄給會計師。",
    ],
    "devanagari": [
        "कल सुबह बैंक जाकर पैसे जमा करना है और पासबुक अपडेट करवानी है।",
        "बिजली का बिल महीने के अंत से पहले भरना, वरना जुर्माना लगेगा।",
    ],
    "thai": [
        "อย่าลืมซื้อนมและขนมปังก่อนกลับบ้าน แล้วโทรหาคุณแม่ด้วย",
        "โทรหาหมอฟันเพื่อนัดวันใหม่ในสัปดาห์หน้า ช่วงบ่ายวันพฤหัสบดี",
    ],
}
SCRIPTS = sorted(SENTENCES)
EMOJI = ["🎉", "👩‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🇩🇪", "🇯🇵", "🧑🏾‍🚀", "❤️‍🔥", "✅", "🛒", "📅", "🐈‍⬛",
         "🙋🏻‍♀️", "🌿", "☕", "⚠️", "1️⃣"]
TITLES = {
    "latin": ["Überweisung prüfen", "Crème brûlée für Zoë", "Café con Ñandú", "Łódź: spotkanie", "Smørbrød"],
    "cyrillic": ["Позвонить в банк", "Купить продукты", "Звіт до понеділка"],
    "greek": ["Ραντεβού γιατρού", "Λαϊκή αγορά"],
    "arabic": ["فاتورة الكهرباء", "اجتماع الأحد"],
    "hebrew": ["לקנות חלב", "תור לרופא"],
    "cjk": ["会議の資料", "去银行转账", "보고서 제출"],
    "devanagari": ["बैंक जाना", "बिजली का बिल"],
    "thai": ["ซื้อนม", "นัดหมอฟัน"],
}
CATEGORIES = ["Arbeit", "Privat", "Einkauf", "Семья", "仕事", "Haushalt", "Reise ✈️", "Ärzte", "Finanzen"]

# Outlook's VTIMEZONEs, named by Windows ids (remconv maps them through CLDR's windowsZones).
WINDOWS_ZONES = {
    "W. Europe Standard Time": ("+0100", "+0200"),
    "Pacific Standard Time": ("-0800", "-0700"),
    "Eastern Standard Time": ("-0500", "-0400"),
}


def vtimezone_iana(zone, offsets):
    standard, daylight = offsets
    return ["BEGIN:VTIMEZONE", "TZID:" + zone, "X-LIC-LOCATION:" + zone,
            "BEGIN:DAYLIGHT", "TZOFFSETFROM:" + standard, "TZOFFSETTO:" + daylight, "TZNAME:DST",
            "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
            "BEGIN:STANDARD", "TZOFFSETFROM:" + daylight, "TZOFFSETTO:" + standard, "TZNAME:STD",
            "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
            "END:VTIMEZONE"]


def vtimezone_chicago_apple():
    # Apple's compact form (iOS 12; macOS writes 23 historical observances).
    return ["BEGIN:VTIMEZONE", "TZID:America/Chicago", "BEGIN:DAYLIGHT", "DTSTART:20070311T020000",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "TZNAME:CDT", "TZOFFSETFROM:-0600", "TZOFFSETTO:-0500",
            "END:DAYLIGHT", "BEGIN:STANDARD", "DTSTART:20071104T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
            "TZNAME:CST", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0600", "END:STANDARD", "END:VTIMEZONE"]


def vtimezone_windows(zone):
    standard, daylight = WINDOWS_ZONES[zone]
    return ["BEGIN:VTIMEZONE", "TZID:" + zone,
            "BEGIN:STANDARD", "DTSTART:16011028T030000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
            "TZOFFSETFROM:" + daylight, "TZOFFSETTO:" + standard, "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:16010325T020000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
            "TZOFFSETFROM:" + standard, "TZOFFSETTO:" + daylight, "END:DAYLIGHT", "END:VTIMEZONE"]


def escape(text):
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line, whole_characters):
    """RFC 5545 folding at 75 octets; in the middle of a UTF-8 sequence unless whole_characters."""
    data = line.encode("utf-8")
    pieces, start, limit = [], 0, 75
    while len(data) - start > limit:
        end = start + limit
        if whole_characters:
            while (data[end] & 0xC0) == 0x80:
                end -= 1
        pieces.append(data[start:end])
        start, limit = end, 74
    pieces.append(data[start:])
    return b"\r\n ".join(pieces) + b"\r\n"


def uuid(rng, upper):
    digits = "".join("0123456789abcdef"[rng.next(16)] for _ in range(32))
    text = "%s-%s-%s-%s-%s" % (digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:])
    return text.upper() if upper else text


class Writer:
    def __init__(self, rng):
        self.rng = rng

    def pick(self, items):
        return items[self.rng.next(len(items))]

    def chance(self, percent):
        return self.rng.next(100) < percent

    def note(self, script, markdown=False):
        """A note of 100 to 4000 characters, mostly in one script, with emoji and paragraphs."""
        bucket = self.rng.next(100)
        target = 100 + self.rng.next(300) if bucket < 50 else 400 + self.rng.next(1100) if bucket < 85 \
            else 1500 + self.rng.next(2500)
        parts, length = [], 0
        while length < target:
            source = script if self.chance(75) else self.pick(SCRIPTS)
            sentence = self.pick(SENTENCES[source])
            if self.chance(30):
                sentence += " " + self.pick(EMOJI)
            if markdown and self.chance(20):
                sentence = "- [ ] **" + sentence + "**"
            separator = "\n\n" if self.chance(15) else "\n" if self.chance(20) else " "
            parts.append(sentence + separator)
            length += len(sentence) + len(separator)
        if self.chance(10):
            parts.append("https://example.org/notes/%d?lang=%s&ref=✓" % (self.rng.next(100000), script))
        return "".join(parts).rstrip()

    def title(self, script, index):
        text = self.pick(TITLES[script])
        if self.chance(25):
            text += " " + self.pick(EMOJI)
        return "%s #%d" % (text, index)


def stamp(rng, year=2026):
    return "%d%02d%02dT%02d%02d%02d" % (year, 1 + rng.next(12), 1 + rng.next(28), rng.next(24), rng.next(60),
                                        rng.next(60))


def calendar_lines(list_index, first, count, rng, whole_folds=False):
    """One VCALENDAR: list_index's items first .. first+count-1, in its producer's shapes."""
    producer = PRODUCERS[list_index % len(PRODUCERS)]
    w = Writer(rng)
    name = "%s %03d %s" % (producer.capitalize(), list_index, w.pick(["Einkäufe", "Работа", "仕事", "Home 🏠",
                                                                     "Ταξίδι", "Famille"]))
    head, zones, body = ["BEGIN:VCALENDAR"], [], []
    whole_characters = whole_folds or producer == "nextcloud"
    if producer == "apple":
        head += ["VERSION:2.0", "PRODID:-//Apple Inc.//iOS 17.4.1//EN", "CALSCALE:GREGORIAN",
                 "X-WR-CALNAME:" + escape(name), "X-APPLE-CALENDAR-COLOR:#%06X" % rng.next(0xFFFFFF)]
    elif producer == "nextcloud":
        head += ["VERSION:2.0", "PRODID:-//Nextcloud Tasks v0.16.1", "X-WR-CALNAME:" + escape(name)]
    elif producer == "tasksorg":
        head += ["VERSION:2.0", "PRODID:+//IDN tasks.org//android-150200//EN", "X-WR-CALNAME:" + escape(name)]
    elif producer == "thunderbird":
        head += ["PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0",
                 "X-WR-CALNAME:" + escape(name)]
    else:
        head += ["PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0", "METHOD:PUBLISH",
                 "X-WR-CALNAME:" + escape(name), "X-MS-OLK-FORCEINSPECTOROPEN:TRUE"]
    windows_zone = list(WINDOWS_ZONES)[list_index % len(WINDOWS_ZONES)]
    if producer == "thunderbird":
        zones = vtimezone_iana("Europe/Berlin", ("+0100", "+0200"))
    elif producer == "tasksorg":
        zones = vtimezone_iana("Europe/Berlin", ("+0100", "+0200"))
    elif producer == "apple":
        zones = vtimezone_chicago_apple()
    elif producer == "outlook":
        zones = vtimezone_windows(windows_zone)
    numeric_base = 1000000000000 + list_index * 100000
    uids = {}
    for index in range(first, first + count):
        script = SCRIPTS[(index * 7 + list_index) % len(SCRIPTS)]
        if producer == "apple":
            uid = uuid(rng, upper=True)
        elif producer == "nextcloud":
            uid = "".join("abcdefghijklmnopqrstuvwxyz0123456789"[rng.next(36)] for _ in range(10))
        elif producer == "tasksorg":
            uid = str(numeric_base + index)
        elif producer == "thunderbird":
            uid = uuid(rng, upper=False)
        else:
            uid = "040000008200E00074C5B7101A82E00800000000%016X%08X" % (rng.next(1 << 62), index)
        uids[index] = uid
        parent = uids.get(index - 1) if index % 10 in (1, 2) and producer in ("apple", "nextcloud", "tasksorg") \
            else None
        created = stamp(rng, 2025)
        modified = stamp(rng, 2026)
        done = w.chance(20)
        has_note = w.chance(70)
        dated = w.chance(75)
        month, day, hour = 1 + rng.next(12), 1 + rng.next(28), rng.next(24)
        due_local = "2027%02d%02dT%02d%02d00" % (month, day, hour, 15 * rng.next(4))
        lines = ["BEGIN:VTODO"]
        if producer == "apple":
            lines += ["CREATED:%sZ" % created, "UID:" + uid, "SUMMARY:" + escape(w.title(script, index)),
                      "DTSTAMP:%sZ" % modified, "SEQUENCE:0", "LAST-MODIFIED:%sZ" % modified,
                      "X-APPLE-SORT-ORDER:%d" % (700000000 + rng.next(100000000)),
                      "PRIORITY:%d" % w.pick([0, 0, 1, 5, 9])]
            if has_note:
                lines.append("DESCRIPTION:" + escape(w.note(script)))
            if parent:
                lines.append("RELATED-TO;RELTYPE=PARENT:" + parent)
            if w.chance(10):
                lines.append("URL;VALUE=URI:https://www.apple.com/reminders/%d" % index)
            if dated:
                lines += ["DTSTART;TZID=America/Chicago:" + due_local, "DUE;TZID=America/Chicago:" + due_local]
                if w.chance(80):
                    alarm = uuid(rng, upper=True)
                    lines += ["BEGIN:VALARM", "X-WR-ALARMUID:" + alarm, "UID:" + alarm,
                              "TRIGGER;VALUE=DATE-TIME:%sZ" % due_local, "DESCRIPTION:Reminder", "ACTION:DISPLAY",
                              "END:VALARM"]
            if w.chance(5):
                alarm = uuid(rng, upper=True)
                lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
                          "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "UID:" + alarm,
                          "X-APPLE-PROXIMITY:" + w.pick(["ARRIVE", "DEPART"]),
                          "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS=Königstraße 12\\\\n70173 Stuttg"
                          "art\\\\nDeutschland;X-APPLE-RADIUS=141.1748408176572;X-APPLE-REFERENCEFRAME=1;X-TI"
                          "TLE=Café am Schloßplatz:geo:48.778%03d,9.180%03d" % (rng.next(1000), rng.next(1000)),
                          "X-WR-ALARMUID:" + alarm, "END:VALARM"]
            lines.append("STATUS:COMPLETED" if done else "STATUS:NEEDS-ACTION")
            if done:
                lines += ["COMPLETED:%sZ" % modified, "PERCENT-COMPLETE:100"]
        elif producer == "nextcloud":
            lines += ["CREATED:" + created, "DTSTAMP:" + modified, "LAST-MODIFIED:" + modified, "UID:" + uid,
                      "SUMMARY:" + escape(w.title(script, index)), "PRIORITY:%d" % rng.next(10),
                      "PERCENT-COMPLETE:%d" % (100 if done else w.pick([0, 0, 25, 50, 80])),
                      "X-OC-HIDESUBTASKS:%d" % rng.next(2), "CLASS:" + w.pick(["PUBLIC", "PUBLIC", "PRIVATE",
                                                                                "CONFIDENTIAL"])]
            if w.chance(50):
                lines.append("CATEGORIES:" + ",".join(escape(w.pick(CATEGORIES)) for _ in range(1 + rng.next(3))))
            if parent:
                lines.append("RELATED-TO:" + parent)
            if has_note:
                lines.append("DESCRIPTION:" + escape(w.note(script)))
            if dated:
                lines.append("DUE;VALUE=DATE:" + due_local[:8] if w.chance(40) else "DUE:" + due_local)
            if done:
                lines += ["STATUS:COMPLETED", "COMPLETED:" + modified]
            elif w.chance(30):
                lines.append("STATUS:IN-PROCESS")
        elif producer == "tasksorg":
            lines += ["DTSTAMP:%sZ" % modified, "UID:" + uid, "CREATED:%sZ" % created,
                      "LAST-MODIFIED:%sZ" % modified, "SUMMARY:" + escape(w.title(script, index)),
                      "PRIORITY:%d" % w.pick([1, 5, 9, 9])]
            if has_note:
                lines.append("DESCRIPTION:" + escape(w.note(script, markdown=True)))
            if w.chance(40):
                lines.append("CATEGORIES:" + ",".join(escape(w.pick(CATEGORIES)) for _ in range(1 + rng.next(2))))
            if parent:
                lines.append("RELATED-TO:" + parent)
            lines.append("X-APPLE-SORT-ORDER:%d" % rng.next(1000))
            if dated:
                if w.chance(30):
                    lines.append("DUE;VALUE=DATE:" + due_local[:8])
                else:
                    lines.append("DUE;TZID=Europe/Berlin:" + due_local)
                    if w.chance(60):
                        lines += ["BEGIN:VALARM", "TRIGGER;RELATED=END:PT0S", "ACTION:DISPLAY",
                                  "DESCRIPTION:Default Tasks.org description", "END:VALARM"]
            if w.chance(8):
                lines.append("RRULE:FREQ=WEEKLY;INTERVAL=%d" % (1 + rng.next(3)))
            if done:
                lines += ["STATUS:COMPLETED", "COMPLETED:%sZ" % modified, "PERCENT-COMPLETE:100"]
        elif producer == "thunderbird":
            lines += ["CREATED:%sZ" % created, "LAST-MODIFIED:%sZ" % modified, "DTSTAMP:%sZ" % modified,
                      "UID:" + uid, "SUMMARY:" + escape(w.title(script, index)),
                      "PRIORITY:%d" % w.pick([0, 1, 5, 9]), "SEQUENCE:%d" % rng.next(4),
                      "X-MOZ-GENERATION:%d" % (1 + rng.next(6))]
            if w.chance(30):
                lines.append("CATEGORIES:" + escape(w.pick(CATEGORIES)))
            if dated:
                lines += ["DTSTART;TZID=Europe/Berlin:" + due_local, "DUE;TZID=Europe/Berlin:" + due_local]
                if w.chance(60):
                    lines.append("X-MOZ-LASTACK:%sZ" % modified)
                    trigger = "TRIGGER;VALUE=DATE-TIME:%sZ" % due_local if w.chance(50) \
                        else "TRIGGER;VALUE=DURATION;RELATED=END:-PT%dM" % (5 * (1 + rng.next(12)))
                    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", trigger, "DESCRIPTION:Default Mozilla Description",
                              "END:VALARM"]
            if has_note:
                lines.append("DESCRIPTION:" + escape(w.note(script)))
            if done:
                lines += ["STATUS:COMPLETED", "COMPLETED:%sZ" % modified, "PERCENT-COMPLETE:100"]
            else:
                lines.append("PERCENT-COMPLETE:%d" % w.pick([0, 0, 30]))
        else:
            language = {"latin": "de-de", "cyrillic": "ru-ru", "greek": "el-gr", "arabic": "ar-sa",
                        "hebrew": "he-il", "cjk": "ja-jp", "devanagari": "hi-in", "thai": "th-th"}[script]
            lines += ["CLASS:PUBLIC", "CREATED:%sZ" % created]
            note = w.note(script) if has_note else ""
            if has_note:
                lines.append("DESCRIPTION:" + escape(note + "\n\n"))
            lines += ["DTSTAMP:%sZ" % modified]
            if dated:
                lines += ["DTSTART;TZID=%s:%s" % (windows_zone, due_local),
                          "DUE;TZID=%s:%s" % (windows_zone, due_local)]
            lines += ["LAST-MODIFIED:%sZ" % modified, "PRIORITY:%d" % w.pick([1, 5, 5, 9]), "SEQUENCE:0",
                      "SUMMARY;LANGUAGE=%s:%s" % (language, escape(w.title(script, index))), "UID:" + uid,
                      "X-MICROSOFT-CDO-APPT-SEQUENCE:0", "X-MICROSOFT-CDO-IMPORTANCE:%d" % rng.next(3),
                      "X-MICROSOFT-CDO-OWNERAPPTID:%d" % (rng.next(1 << 31) - (1 << 30)),
                      "X-MS-OLK-AUTOFILLLOCATION:FALSE"]
            if has_note:
                paragraphs = "".join('<P DIR=%s><SPAN LANG="%s"><FONT FACE="Calibri">%s</FONT></SPAN></P>\n' % (
                    "RTL" if script in ("arabic", "hebrew") else "LTR", language, paragraph)
                    for paragraph in note.split("\n") if paragraph)
                html = ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2//EN">\n<HTML>\n<HEAD>\n<META NAME="Generator"'
                        ' CONTENT="MS Exchange Server version 16.0.17328.20000">\n<TITLE></TITLE>\n</HEAD>\n<BODY>\n'
                        '<!-- Converted from text/rtf format -->\n\n' + paragraphs + '\n</BODY>\n</HTML>')
                lines.append("X-ALT-DESC;FMTTYPE=text/html:" + escape(html))
            if done:
                lines += ["STATUS:COMPLETED", "COMPLETED:%sZ" % modified, "PERCENT-COMPLETE:100"]
            else:
                lines.append("STATUS:" + w.pick(["NEEDS-ACTION", "IN-PROCESS"]))
        lines.append("END:VTODO")
        body += lines
    # Apple writes its VTIMEZONE after the VTODOs, the others before.
    if producer == "apple":
        lines = head + body + zones
    else:
        lines = head + zones + body
    return b"".join(fold(line, whole_characters) for line in lines + ["END:VCALENDAR"])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--tsv-from":
        with open(sys.argv[2], encoding="utf-8") as source:
            for line in source:
                sys.stdout.write(tsv_row(json.loads(line)) + "\n")
        return
    count = int(sys.argv[1])
    whole_folds = sys.argv[2:] == ["--whole-character-folds"]
    rng = Sequence(20261201)
    out = sys.stdout.buffer
    for list_index, first in enumerate(range(0, count, LIST_SIZE)):
        out.write(calendar_lines(list_index, first, min(LIST_SIZE, count - first), rng, whole_folds))


if __name__ == "__main__":
    main()
