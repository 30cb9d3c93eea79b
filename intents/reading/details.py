"""The details of an agent a message gives, as clean phrases in the user's own words.

The offline tier's entities say *which* tool or schedule a message names (normalized, accents
stripped); this reads the phrases a summary shows back from the original text, case and accents
intact: what to watch, the job described, the destination with its channel or address
verbatim, the schedule in words with its time zone, an explicit name. An acknowledgement
("yes please", "ok", "sure") gives nothing.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from conversations.agents.selectors import agent_name
from intents.offline.entities import extract_entities
from intents.offline.lexicon import words
from intents.offline.schedule import find_days, find_schedule, find_time
from intents.offline.text import normalize

# Cities and zone words people say, to IANA names (a full "Europe/Berlin" is read as is).
ZONES = {
    "berlin": "Europe/Berlin", "berliner": "Europe/Berlin", "london": "Europe/London",
    "londres": "Europe/London", "paris": "Europe/Paris", "madrid": "Europe/Madrid",
    "amsterdam": "Europe/Amsterdam", "brussels": "Europe/Brussels", "zurich": "Europe/Zurich",
    "vienna": "Europe/Vienna", "wien": "Europe/Vienna", "rome": "Europe/Rome",
    "roma": "Europe/Rome", "lisbon": "Europe/Lisbon", "lisboa": "Europe/Lisbon",
    "dublin": "Europe/Dublin", "stockholm": "Europe/Stockholm", "warsaw": "Europe/Warsaw",
    "helsinki": "Europe/Helsinki", "athens": "Europe/Athens", "istanbul": "Europe/Istanbul",
    "munich": "Europe/Berlin", "munchen": "Europe/Berlin", "hamburg": "Europe/Berlin",
    "new york": "America/New_York", "nueva york": "America/New_York",
    "eastern": "America/New_York", "boston": "America/New_York", "toronto": "America/Toronto",
    "chicago": "America/Chicago", "central": "America/Chicago", "denver": "America/Denver",
    "mountain": "America/Denver", "los angeles": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "pacific": "America/Los_Angeles",
    "seattle": "America/Los_Angeles", "mexico city": "America/Mexico_City",
    "sao paulo": "America/Sao_Paulo", "brasilia": "America/Sao_Paulo",
    "rio de janeiro": "America/Sao_Paulo", "buenos aires": "America/Argentina/Buenos_Aires",
    "sydney": "Australia/Sydney", "melbourne": "Australia/Melbourne",
    "auckland": "Pacific/Auckland", "tokyo": "Asia/Tokyo", "seoul": "Asia/Seoul",
    "singapore": "Asia/Singapore", "hong kong": "Asia/Hong_Kong", "shanghai": "Asia/Shanghai",
    "mumbai": "Asia/Kolkata", "india": "Asia/Kolkata", "bangalore": "Asia/Kolkata",
    "dubai": "Asia/Dubai", "utc": "UTC", "gmt": "UTC",
    "bogota": "America/Bogota", "lima": "America/Lima", "santiago": "America/Santiago",
    "caracas": "America/Caracas", "montevideo": "America/Montevideo",
    "ciudad de mexico": "America/Mexico_City", "cdmx": "America/Mexico_City",
    "vancouver": "America/Vancouver", "montreal": "America/Toronto",
    "phoenix": "America/Phoenix", "atlanta": "America/New_York", "miami": "America/New_York",
    "austin": "America/Chicago", "dallas": "America/Chicago", "manila": "Asia/Manila",
    "jakarta": "Asia/Jakarta", "bangkok": "Asia/Bangkok", "kuala lumpur": "Asia/Kuala_Lumpur",
    "karachi": "Asia/Karachi", "tel aviv": "Asia/Jerusalem", "cairo": "Africa/Cairo",
    "lagos": "Africa/Lagos", "nairobi": "Africa/Nairobi", "johannesburg": "Africa/Johannesburg",
    "milan": "Europe/Rome", "milano": "Europe/Rome", "bruxelles": "Europe/Brussels",
    "prague": "Europe/Prague", "budapest": "Europe/Budapest", "copenhagen": "Europe/Copenhagen",
    "oslo": "Europe/Oslo", "barcelona": "Europe/Madrid", "porto": "Europe/Lisbon",
    "perth": "Australia/Perth", "brisbane": "Australia/Brisbane",
}  # fmt: skip
_ZONE_RE = re.compile(
    r"\b(?:" + "|".join(sorted((re.escape(z) for z in ZONES), key=len, reverse=True)) + r")\b"
)
# Abbreviations count only in capitals: "est" and "ist" are words in French and German.
_ABBREVIATIONS = {
    "CET": "Europe/Berlin", "CEST": "Europe/Berlin", "BST": "Europe/London",
    "EST": "America/New_York", "EDT": "America/New_York", "CST": "America/Chicago",
    "CDT": "America/Chicago", "MST": "America/Denver", "MDT": "America/Denver",
    "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
}  # fmt: skip
_ABBREVIATION_RE = re.compile(r"\b(" + "|".join(_ABBREVIATIONS) + r")\b")
_IANA_RE = re.compile(r"\b([A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)\b")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_SLACK_USER_RE = re.compile(r"(?<![\w.@])@[A-Za-z][\w.-]*[\w](?![\w@])")
_DM_RE = re.compile(r"\b(?:dm|dms|direct message|slack me|message me)\b", re.IGNORECASE)
_CHANNEL_RE = re.compile(r"(?<![\w#])#[^\W_][\w-]*")  # "#équipe-ventes-lyon" as written
_EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_NAME_RE = re.compile(
    r"(?:\bnamed|\bcalled|\bcall it|\bname it|\bnommé|\bnommée|\bappel(?:é|ée|le-le|lez-le)|"
    r"\bllamado|\bllamada|\bllámalo|\bllamalo|\bnamens|\bnenne? (?:es|ihn|sie)|\bchamado|"
    r"\bchama-o|\bcham[ae] (?:ele|ela|o|a)? ?de|\b(?:name|nombre|nom|nome)(?=\s*[:=])|"
    r"\bchiamal[oa]|\bchiamat[oa]|\bsi chiama|\bil nome (?:è|e|sarà|sara)|"
    r"\bnoem (?:hem|het|haar)|\bgenaamd|\bname(?= (?-i:[A-Z]))|"
    r"\bthe name (?:is|should be|will be)|"
    r"\bel nombre (?:es|será|sera|puede ser)|\ble nom (?:est|sera)|\bder name (?:ist|soll)|"
    r"\bo nome (?:pode ser|é|e|será|sera))\s*[:=]?\s*[\"'“«]?([^\W_][\w-]{1,60})",
    re.IGNORECASE,
)
# A name in quotes may have spaces: «Cobros de Facturación», "Deal Watch".
_QUOTED_NAME_RE = re.compile(
    r"(?:\bnamed|\bcalled|\bcall it|\bname it|\bnommé|\bnommée|\bllamado|\bllamada|"
    r"\bnamens|\bchamado|\bchiamato|\bagent|\bagente|\bagenten|\bbot)\s*[:=]?\s*[\"“«']"
    r"([^\"”»'\n]{2,60})[\"”»']",
    re.IGNORECASE,
)
# Where exactly it looks, in the user's words: a quoted sheet, board or project name, or a
# repository ("acme/web").
_QUOTED_RE = re.compile(
    r"[\"“«]([^\"”»\n]{2,60})[\"”»]|(?<!\w)['\u2018]([^'\u2019\n]{2,60})['\u2019](?!\w)"
)
_REPO_CUE_RE = re.compile(r"\b(?:repo|repos|repository|repositorio|d[ée]p[ôo]t|reposit[óo]rio|"
                          r"github|gitlab|bitbucket)\b", re.IGNORECASE)  # fmt: skip
_REPO_RE = re.compile(r"(?<![\w/.:@-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/])")
_ACK_RE = re.compile(
    r"^[\s¡¿]*(?:(?:ok(?:ay)?|sure|yes|yeah|yep|yup|please|pls|thanks|thank you|great|fine|cool|"
    r"perfect|alright|right|got it|sounds good|go ahead|si|claro|vale|por favor|gracias|oui|"
    r"wait|hmm|moment|momento|attends|warte|espera|na gut|alles klar|passt|bueno|tudo bem|"
    r"danke (?:dir|euch|sch[öo]n|sehr)|vielen dank|thank you|merci (?:beaucoup|bien|[àa] toi)|"
    r"muchas gracias|gracias a ti|muito obrigad[oa]|"
    r"beleza|"
    r"d'accord|merci|ja|bitte|danke|genau|klar|sim|obrigad[oa]|sorry|oops|my bad|perd[oó]n|"
    r"pardon|d[ée]sol[ée]e?|entschuldigung|desculpa)\b[\s,.!]*)+",
    re.IGNORECASE,
)
_QUESTION_RE = re.compile(
    r"\?\s*$|^(?:quick question|question)\b|^(?:how|what|why|when|where|who|which|can|could|"
    r"do|does|is|are)\b.*\?",
    re.IGNORECASE,
)
# A phrase runs to the end of its sentence; a dot inside a word ("@bigclient.com") is no end.
_PHRASE = r"(?:[^.;!?]|\.(?=\w))+"
# What a request watches or works on, after its verb ("watches our Jira board for X" -> X).
_WATCH_FOR_RE = re.compile(
    r"\b(?:watch(?:es|ing)?|monitor(?:s|ing)?|check(?:s|ing)?|chekc?s?|chcek(?:s|ing)?|"
    r"scan(?:s|ning)?|track(?:s|ing)?|look(?:s|ing)? (?:through|at)|keep(?:s|ing)? an eye on|"
    r"search(?:es|ing)?|"
    r"dig(?:s|ging)? (?:through|into)|go(?:es|ing)? through|comb(?:s|ing)? through)\s+"
    r"(?:(?:[^,.;!?]|\.(?=\w)){0,100}?)\s+for\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
_WATCH_RE = re.compile(
    r"\b(?:keep(?:s|ing)? an eye on|watch(?:es|ing)?|monitor(?:s|ing)?|track(?:s|ing)?|"
    r"look(?:s|ing)? (?:out )?for|search(?:es|ing)? for|"
    r"find(?:s|ing)?|collect(?:s|ing)?|flag(?:s|ging)?|gather(?:s|ing)?|"
    r"pull(?:s|ing)?(?! requests?\b)|"
    r"grab(?:s|bing)?|fetch(?:es|ing)?|"
    r"surveille|surveiller|vigila|vigilar|monitorea|überwacht|ueberwacht|beobachtet|"
    r"monitora|sammelt|recoge|recopila|recopilando|recopilar|compilar|compilando|compiler|"
    r"compile|rassembler|juntar|juntando|zusammenstellen|collecte|summari[sz]e[sd]?|"
    r"summari[sz]ing|"
    r"r[ée]cup[èe]re|r[ée]cup[ée]rer|extrae|extraer|busca|buscar|holt|puxa|pega|"
    r"review(?:s|ing)?|revis[ae]|revisar|v[ée]rifie|v[ée]rifier|verifica|pr[üu]ft|confiro|"
    r"conferir|confere|verifico|reviso|compruebo|busque|repère|rep[èe]re|repérer|encuentra|"
    r"encontra|trouve|olhar|olhe|acompanhar|vigiar|regarder|check(?:s|ing)?|"
    r"trova|trovare|cerca|cercare|controlla|controllare|segnala|segnalare|raccoglie|"
    r"raccogliere)\s+"
    r"(?:(?:à|a) la main|by hand|manually|a mano|von hand|"
    r"manualmente|à mão|a mão|manuellement)?\s*"
    r"(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
_SUMMARY_OF_RE = re.compile(
    r"\b(?:summary|summaries|digest|report|roundup|recap|overview|list|résumé|resume|resumen|"
    r"informe|rapport|Zusammenfassung|Bericht|resumo|relatório|relatorio)\s+"
    r"(?:\w+\s+)?(?:of|de|des|du|der|von|do|da|sobre|über)\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# German puts the verb last: "… überfällige Rechnungen aus Xero zusammenfasst".
# "… die offenen pull requests im github repo acme/backend checkt, die länger als 3 tage kein
# review haben": the object, and the relative clause that says which.
_DE_WATCH_RE = re.compile(
    r"(?P<what>(?:[^\W\d_][\w-]*\s){0,3}[^\W\d_][\w-]*)\s+(?:aus|von|in|im|bei)\s+"
    r"(?:\S+\s+){1,3}?"
    r"(?:zusammenfasst|zusammenfassen|pr[üu]ft|[üu]berwacht|sammelt|meldet|sucht|auflistet|"
    r"abruft|holt|checkt|kontrolliert|durchsucht|beobachtet)\b"
    r"(?:,?\s+(?P<which>(?:die|der|das|welche)\s+[^,.;!?]{3,80}?\s+(?:haben|hat|sind|ist|"
    r"werden|wird|liegen|liegt|warten|wartet)))?\b"
)
# "…, der in Shopify Produkte mit weniger als 10 Stück findet": the object before the verb.
_DE_RELATIVE_RE = re.compile(
    r"\b(?:der|die|das)\s+(?:in|aus|bei|von|im)\s+\S+\s+(?P<what>[^,.;!?]{3,80}?)\s+"
    r"(?:findet|sucht|pr[üu]ft|[üu]berwacht|meldet|sammelt|zusammenfasst|auflistet|holt)\b"
)
# "Wir vergessen ständig, die GitLab-Issues mit dem Label 'security' durchzugehen": what is
# forgotten, before its verb.
_DE_FORGOTTEN_RE = re.compile(
    r"\bvergess\w*\s+(?:(?:st[äa]ndig|immer|oft),?\s+)?(?:(?:die|den|das|alle)\s+)?"
    r"(?P<what>[^,.;!?]{3,80}?)\s+(?:durchzugehen|zu pr[üu]fen|zu checken|anzuschauen|"
    r"zu beantworten|nachzufassen|zu verl[äa]ngern)\b",
    re.IGNORECASE,
)
# A described miss ("we keep missing new Zendesk tickets …", "keep forgetting to follow up
# on …"): what it should watch.
_MISSED_RE = re.compile(
    r"\b(?:keep missing|always miss|(?:we|i) miss|missing|overlook(?:ing)?|[üu]bersehen|"
    r"(?:keep |always )?forget(?:ting)? to (?:follow up on|check|look at|chase|review|reply to|"
    r"answer|update)|lose track of|losing track of|"
    r"verpassen|se nos (?:pasan|escapan)|nos perdemos|on (?:rate|loupe)|deixamos passar)\s+"
    r"(?:(?:st[äa]ndig|immer|oft|constantly|always|often|toujours|souvent|siempre|sempre)\s+)?"
    r"(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "scroll through Linear to see which issues got assigned to my team overnight", "schreibe
# zusammen, welche GitHub-Issues … geschlossen wurden": what is looked for.
_SEE_WHICH_RE = re.compile(
    r"\b(?:see|check|find out|know|figure out|spot|work out|ver|saber|voir|savoir|sehen|"
    r"zusammen|nachsehen|nachschaut|schaut|revisando|revisar|mirando|comprobando|checando|"
    r"conferindo|conferir|verificando|verificar|olhando|"
    r"v[ée]rifier|pr[üu]fen|asks?(?: me| us)?|asking(?: me| us)?)"
    r"(?:\s+(?:en|in|dans|em|no|na)\s+\S+)?\s*,?\s+"
    r"(?:(?:which|what|whether|if|quais|quels?|quelles?|"
    # "wer nächste Woche anfängt" keeps its "wer": without it the clause says nothing.
    r"cu[aá]les|qu[eé]|welche)\s+|(?=(?:wer|was|ob)\s))(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "new agnet: new sentry issues from the last 24h": what follows the colon.
_AGENT_COLON_RE = re.compile(
    r"\b(?:agent|agnet|agetn|bot|automation|monitor|agente)\s*:\s*(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "posts overdue Jira tickets to #eng": what is sent is what it looks for.
_POSTS_WHAT_RE = re.compile(
    r"\b(?:posts?|sends?|emails?|forwards?|shares?|drops?|pushes?|delivers?|dms?)\s+(?:me\s+|us\s+)?"
    r"(?P<what>(?!(?:a|an|the|me|us|it|them|results?|summar\w+|digest|report|alerts?|"
    r"notifications?|messages?)\b)[^,.;!?#@]{3,80}?)\s+(?:to|into|in|on)\s+(?=#|slack\b|teams\b|"
    r"[\w.+-]+@)",
    re.IGNORECASE,
)
_AFTER_COLON_RE = re.compile(r":\s*(?P<what>" + _PHRASE + ")")
# "emails me every new HubSpot lead": what it reacts to.
_EVERY_NEW_RE = re.compile(
    r"\b(?:every|each|any|all|whenever an?|when an?|posts?|sends?|emails?|forwards?|shares?)\s+"
    # "emails me (dana@kiln.studio) the new airtable rows": past who gets them.
    r"(?:(?:me|us)\s+)?(?:\([^)]{1,60}\)\s+)?(?:(?:the|all|any)\s+)?"
    r"(?P<what>new\s+" + _PHRASE + ")",
    re.IGNORECASE,
)
_AGENT_FOR_RE = re.compile(
    r"\b(?:agent|bot|automation|agente)\s+(?:for|para|pour|für)\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# A described job ("I spend an hour copying X from A into B"), from its verb on.
_JOB_RE = re.compile(
    r"\b(?P<verb>copying|copy|pasting|paste|pulling|exporting|moving|compiling|updating|"
    r"analy[sz]e|analy[sz]ing|prepare|preparing|put together|putting together|"
    r"transferring|syncing|entering|typing|copiando|pegando|exportando|pasando|copier|"
    r"recopier|coller|exporter|kopiere|kopieren|übertrage|uebertrage|exportiere|copiar|"
    r"copio|copie)\b(?P<rest>" + _PHRASE + ")",
    re.IGNORECASE,
)
_GERUND = {
    "copying": "Copy", "pasting": "Paste", "pulling": "Pull", "exporting": "Export",
    "moving": "Move", "compiling": "Compile", "updating": "Update", "transferring": "Transfer",
    "syncing": "Sync", "entering": "Enter", "typing": "Type", "analyzing": "Analyze",
    "analysing": "Analyse", "preparing": "Prepare", "putting together": "Put together",
}  # fmt: skip
# Where a phrase stops: its schedule, its destination, or the next clause.
_TAIL_RE = re.compile(
    r"\s*(?:\(|,|;| - | evry\b| and (?:then )?(?:send|sends|post|posts|email|emails|alert|alerts|"
    r"ping|"
    r"pings|notify|notifies|message|messages|share|shares|drop|drops|put|puts|report|reports|"
    r"paste|pastes|copy|copies|forward|forwards|dump|dumps|write|writes)\b|"
    r" then\b| and \w+ing\b| and (?:i|we) \w+| (?:y|e) \w+?(?:a|e|ie|i[ée]|é)ndo\w*| into #|"
    r" every\b| each\b|"
    r" daily\b| weekly\b| monthly\b|"
    r" hourly\b| at \d| on (?:mon|tue|"
    r"wed|thu|fri|sat|sun)| to #| to [\w.+-]+@| in slack\b| on slack\b| via\b| by email\b|"
    r" e (?:me |nos )?(?:manda\w*|envia\w*|posta\w*|public\w*|avis\w*)|"
    r" tod[oa]s? (?:os |as )?(?:dias?|semanas?|segunda|ter[cç]a|quarta|quinta|sexta)| às \d|"
    r" y (?:me |nos |te )?(?:env[ií]\w*|mand\w*|avis\w*|public\w*)| et (?:m'|nous |me )?"
    r"(?:envoie|envoyer|poste|publie|alerte)\w*| und (?:mir |uns )?(?:schick|send|post)\w*|"
    r" cada\b| chaque\b| tous les\b| toutes les\b| jeden\b| jede\b| todos los\b| todas las\b|"
    r" ogni\b| tutti i giorni\b| alle \d| e (?:mi |ci |li |le |lo )?(?:invia|manda|segnala|"
    r"avvisa|pubblica)\w*|"
    r" los (?:lunes|martes|miercoles|miércoles|jueves|viernes)| a las \d| à \d| um \d|"
    r" por (?:slack|correo|email)| par (?:e-?mail|slack)| an #| à [\w.+-]+@| a [\w.+-]+@|"
    r" para (?:publicar|enviar|mandar|postar)\w*| pour (?:les |la |le )?(?:envoyer|publier|"
    r"poster)\w*|"
    r" that day\b(?=.*\bevery\b))",
    re.IGNORECASE,
)
_LEAD_RE = re.compile(r"^(?:(?:dans|in|from|en|aus|em|no|na|de) \S+ (?=(?:les|the|los|las|die|"
                      r"os|as|le|la|des)\b)|(?:for|the|all|any|our|my|me|us|un|una|une|le|la|"
                      r"les|los|las|der|die|das|den|eine|einen|ein|os|as|gli|il|lo)\b\s*)",
                      re.IGNORECASE)  # fmt: skip
_SUMMARY_WORDS = re.compile(
    r"\b(?:summar\w*|digest|r[eé]cap|roundup|round-up|resumen|resum\w*|résumé|zusammenfass\w*|"
    r"synthese|synthèse)\b",
    re.IGNORECASE,
)
_REPORT_WORDS = re.compile(
    r"\b(?:report\w*|informe|rapport|bericht|relat[oó]rio|dashboard)\b", re.IGNORECASE
)
_ALERT_WORDS = re.compile(
    r"\b(?:alert\w*|notif\w*|ping\w*|warn\w*|heads-up|avis\w*|alerte\w*|benachrichtig\w*|"
    r"warne\w*|nudge\w*|remind\w*)\b",
    re.IGNORECASE,
)
_SEND_WORDS = re.compile(
    r"\b(?:send\w*|post\w*|email\w*|e-mail\w*|mail\w*|message\w*|share\w*|drop\w*|envi\w*|"
    r"mand\w*|publi\w*|schick\w*|poste\w*)\b",
    re.IGNORECASE,
)
_ONE_OFF_RE = re.compile(
    r"\b(?:once|one-off|one off|just this time|for the board|board meeting|presentation|slides|"
    r"deck|tomorrow|next week|by friday|before the|for the meeting|ad hoc|right now)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Schedule:
    """A schedule as the offline tier reads it, and the time zone it is in."""

    compact: str  # "weekly monday 08:00", "daily 09:00", "every 15 minutes", "weekly"
    zone: str

    @property
    def complete(self) -> bool:
        """Whether it says when (a weekly one needs its day and time, a daily one its time)."""
        words = self.compact.split()
        if words[0] in ("hourly", "every", "minutely", "once"):
            return True
        has_time = bool(re.search(r"\d{1,2}:\d{2}", self.compact))
        if words[0] in ("weekly", "biweekly"):
            return has_time and any(day in words for day in _DAYS)
        if words[0] == "monthly":
            return has_time or len(words) > 1
        return has_time

    def words(self) -> str:
        """ "Every Monday at 08:00 (Europe/Berlin)"."""
        if self.compact == "once":
            return "Once, right away"
        return f"{schedule_words(self.compact)} ({self.zone})"


def _said(clock: str) -> str:
    """ "15:00 (3 pm)": a 24-hour time with its afternoon reading."""
    hour, minute = int(clock.split(":")[0]), clock.split(":")[1]
    if hour <= 12:
        return clock
    return f"{clock} ({hour - 12}{':' + minute if minute != '00' else ''} pm)"


def schedule_words(compact: str) -> str:
    words = compact.split()
    clocks = [w for w in words if re.fullmatch(r"\d{1,2}:\d{2}", w)]
    days = [w.title() for w in words if w in _DAYS]
    # "at 09:00 and 15:00 (3 pm)": every time of a schedule that runs more than once a day.
    at = f" at {' and '.join(_said(c) for c in clocks)}" if clocks else ""
    head = words[0] if words else ""
    if head == "weekly" and days:
        return f"Every {' and '.join(days)}{at}"
    if head == "biweekly":
        return f"Every other {' and '.join(days) or 'week'}{at}"
    if head in ("weekdays", "weekday"):
        return f"Every weekday{at}"
    if head == "daily":
        return f"Every day{at}"
    if head == "hourly":
        return "Every hour"
    if head == "monthly":
        rest = " ".join(w for w in words[1:] if w not in clocks)
        return f"Every month{(' on the ' + rest) if rest else ''}{at}"
    if head == "once":
        return "Once, now"
    if head == "every":
        return compact[0].upper() + compact[1:]
    if head == "weekly":
        return f"Every week{at}"
    return compact[0].upper() + compact[1:] if compact else compact


def zone_in(text: str) -> str | None:
    """The time zone a message names, if any ("9am Berlin time" -> Europe/Berlin)."""
    iana = _IANA_RE.search(text)
    if iana:
        try:
            zoneinfo.ZoneInfo(iana.group(1))
            return iana.group(1)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    match = _ZONE_RE.search(normalize(text))
    if match:
        return ZONES[match.group(0)]
    abbreviation = _ABBREVIATION_RE.search(text)
    return _ABBREVIATIONS[abbreviation.group(1)] if abbreviation else None


def _clean(phrase: str) -> str:
    phrase = _TAIL_RE.split(phrase, maxsplit=1)[0]
    quoted = phrase.rstrip(" ,.;:!?-").endswith("'")
    phrase = phrase.strip(" ,.;:!?-\"'")
    if quoted and phrase.count("'") % 2 == 1:
        phrase += "'"  # "… mit dem Label 'security'": the closing quote of a quoted name
    for _ in range(2):
        phrase = _LEAD_RE.sub("", phrase)
    return phrase[:160].strip()


def _job(text: str) -> str | None:
    match = _JOB_RE.search(text)
    if not match:
        return None
    rest = re.sub(r"\s*\([^)]*\)", "", match.group("rest"))
    rest = re.split(
        r"\s*(?:,|;| every\b| each\b| cada\b| chaque\b| jeden\b| and \w+ing\b| into #| to #)",
        rest,
    )[0]
    verb = match.group("verb")
    lead = _GERUND.get(verb.lower(), verb)  # other languages' words stay as written
    return f"{lead}{rest}".strip(" ,.")[:200]


def what_it_watches(text: str) -> str | None:
    """What a request watches or works on, in the user's words ("overdue tickets"); a phrase
    that only names the tool ("revise Zendesk") counts when no other says more."""
    only_tool: str | None = None
    for pattern in (
        # German verb-final clauses first: their verbs are German, and an English-looking word
        # inside them ("kein review haben") is no verb.
        _DE_WATCH_RE,
        _DE_RELATIVE_RE,
        _DE_FORGOTTEN_RE,
        _WATCH_FOR_RE,
        _SUMMARY_OF_RE,
        _SEE_WHICH_RE,
        _AGENT_COLON_RE,
        _WATCH_RE,
        _POSTS_WHAT_RE,
        _EVERY_NEW_RE,
        _MISSED_RE,
    ):
        match = pattern.search(text)
        while match:
            what = match.group("what")
            if pattern is _DE_WATCH_RE:
                # "montags die offenen issues": what follows its article, not the day before.
                what = re.split(r"\b(?:die|der|das|den|dem)\s+", what, flags=re.IGNORECASE)[-1]
                # "um 8 Uhr neue Bewerbungen": not the hour before it either.
                what = re.sub(r"^(?:uhr|morgens|abends|täglich|taeglich)\s+", "", what, flags=re.I)
            # "récupère chaque mardi à 9h (heure de Paris) les rendez-vous …": the schedule
            # said first is no part of what it looks for.
            phrase = _clean(_SCHEDULE_FIRST_RE.sub("", what, count=1))
            which = match.groupdict().get("which")
            if which and phrase:
                phrase = f"{phrase}, {which}"
            if len(phrase) >= 3 and not _EMAIL_RE.fullmatch(phrase):
                if not _only_a_tool(phrase):
                    return phrase
                only_tool = only_tool or phrase
            # "revise Zendesk cada día, busque tickets …": the next verb may say what.
            match = pattern.search(text, match.start() + 1)
    return only_tool


def _only_a_tool(phrase: str) -> bool:
    """ "o Intercom", "le dépôt GitHub acme/api": where it reads, not what it looks for."""
    source = extract_entities(phrase).get("source")
    if not source:
        return False
    tool = set(re.split(r"[_,]", source))
    rest = [
        w
        for w in normalize(phrase).split()
        if w not in tool and w not in _WHERE_WORDS and "/" not in w
    ]
    return not rest


# Words that only say where a tool keeps things ("le dépôt", "our workspace").
_WHERE_WORDS = words(
    "o a os as le la les el los las the our my de du des do da no na em in on dans depot "
    "repo repository repositorio base instance account workspace data der die das den dem im "
    "und and store shop site website org organization helpdesk inbox board team app tool "
    "instance portal"
)


def what_it_does(text: str) -> str | None:
    """The kind of output a request asks for: a summary, a report, an alert, a message."""
    text = _CHANNEL_RE.sub(" ", _EMAIL_RE.sub(" ", text))  # "#ops-alerts" names a channel
    if _SUMMARY_WORDS.search(text):
        return "Send a summary"
    if _REPORT_WORDS.search(text):
        return "Build a report"
    if _ALERT_WORDS.search(text):
        return "Send an alert"
    if _SEND_WORDS.search(text):
        return "Send the results"
    return None


# A channel named after the word, unquoted: "channel Staffing-Alerts", "nel canale
# Qualita-Linea2", "im Kanal Instandhaltung".
_CHANNEL_NAMED_AFTER_RE = re.compile(
    r"\b(?i:channel|canale|canal|kanal)\s+(?:(?i:microsoft\s+teams|teams|slack|discord)\s+)?"
    r"(?:(?i:called|named|chiamato|llamado|nommé|namens)\s+)?[«\"'“]?\s*"
    r"(?P<name>(?!(?i:teams|slack|discord)\b)[A-Za-z0-9][\w-]{1,60})"
)
_SCHEDULE_FIRST_RE = re.compile(
    r"^(?:chaque|tous les|toutes les|every|each|cada|jeden|jede|todos los|todas las|todo|toda|"
    r"todos os|todas as|ogni)\s+\S+(?:\s+(?:à|a|at|um|as|às|alle|a las)\s+\S+)?"
    r"(?:\s*\([^)]*\))?[\s,]*(?=\S)",
    re.IGNORECASE,
)
_A_CHANNEL_BEFORE_RE = re.compile(
    r"\b(?:channel|canale|canal|kanal)(?:\s+(?:microsoft\s+)?(?:teams|slack|discord))?\s*$",
    re.IGNORECASE,
)
_NAMED_CHANNEL_RE = re.compile(
    r"['\"«“](?P<name>[^'\"»”#]{1,60})['\"»”]\s+channel\s+(?:in|on|of)\s+"
    r"(?P<tool>(?:Microsoft\s+)?Teams|Slack)\b",
    re.IGNORECASE,
)
_INTO_A_TABLE_RE = re.compile(
    r"\b(?:put|add|save|write|append|log|store|drop|send|insert)\b[^.;!?]{0,30}?\b(?:in|into|to)\s+"
    r"(?:the\s+|our\s+|a\s+)?['\"«“](?P<name>[^'\"»”]{1,60})['\"»”]\s+"
    r"(?P<kind>table|sheet|spreadsheet|database|tab|base)\s+(?:in|on|of)\s+"
    r"(?P<tool>Airtable|Google Sheets|Notion|Excel|Smartsheet)\b",
    re.IGNORECASE,
)


def destination_in(text: str, entity: str | None) -> str | None:
    """Where results go, with channels and addresses exactly as written."""
    channel = _where_to(_CHANNEL_RE, text)
    email = _where_to(_EMAIL_RE, text)
    tool = (entity or "").split(":")[0]
    if channel and email and email.start() > channel.start():
        channel = None  # "messages from #standup … emailed to team@acme.com"
    if channel:
        where = "Microsoft Teams" if tool == "teams" else "Slack"
        return f"{where} {channel.group(0)}"
    person = _SLACK_USER_RE.search(text)
    if person and (tool == "slack" or _DM_RE.search(text)):
        return f"Slack {person.group(0)}"  # "dm them to me on slack @jordan"
    if email and not re.search(r"\b(?:add|invite|remove|user)\b", text, re.IGNORECASE):
        # "emails ravi@… and oksana@…": every address, in the order written.
        more = [m.group(0) for m in _EMAIL_RE.finditer(text, email.end())]
        return ", ".join(dict.fromkeys([email.group(0), *more]))
    named = _NAMED_CHANNEL_RE.search(text)
    if named:
        # "the 'Support Leads' channel in Microsoft Teams", as written.
        tool_name = "Microsoft Teams" if "teams" in named.group("tool").lower() else "Slack"
        return f"{tool_name} '{named.group('name')}'"
    after = _CHANNEL_NAMED_AFTER_RE.search(text)
    if after and re.search(r"[A-Z0-9-]", after.group("name")):
        # "Microsoft Teams, channel Staffing-Alerts", "nel canale Qualita-Linea2", as written.
        where = (
            "Microsoft Teams"
            if tool == "teams" or re.search(r"\bteams\b", text, re.IGNORECASE)
            else "Discord"
            if tool == "discord" or re.search(r"\bdiscord\b", text, re.IGNORECASE)
            else "Slack"
        )
        return f"{where} '{after.group('name')}'"
    table = _INTO_A_TABLE_RE.search(text)
    if table:
        # "put them in the 'Wins' table in Airtable": a table or sheet, named as written.
        return f"{table.group('tool')} '{table.group('name')}' {table.group('kind').lower()}"
    if tool in ("slack", "teams", "discord", "email", "sms"):
        return {"slack": "Slack", "teams": "Microsoft Teams", "discord": "Discord"}.get(
            tool, "Email" if tool == "email" else "SMS"
        )
    return None


_READ_FROM_RE = re.compile(
    r"\b(?:from|of|del|aus|von|depuis)\s+(?:the\s+|our\s+|my\s+|la\s+|le\s+|"
    r"el\s+|dem\s+|der\s+)?$",
    re.IGNORECASE,
)


def _where_to(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first channel or address results go to; one read from ("from #standup") or taken
    back ("not #support-leads, …") is not."""
    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 30) : match.start()]
        if not _READ_FROM_RE.search(before) and not _NOT_THERE_RE.search(before):
            return match
    return None


_NOT_THERE_RE = re.compile(
    r"\b(?:not|no|instead of|rather than|nicht|pas|no a|não)\s+(?:to\s+|in\s+|a\s+|an\s+)?$",
    re.IGNORECASE,
)


_TIME_TAKEN_BACK_RE = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|h|uhr)?\s*(?:--|\u2014|\u2013|-|,|\.\.\.)?\s*"
    r"(?:no wait|no|actually|sorry|i mean|nein|non|não)[,\s-]+(?=\d)",
    re.IGNORECASE,
)
_NEW_SOURCE = r"\b(?:from|source|instead|switch|rather|actually|moved|not|no longer)\b"


def _tool_of(destination: str) -> str:
    for tool, shown in (("slack", "Slack"), ("teams", "Microsoft Teams"), ("discord", "Discord")):
        if destination.startswith(shown):
            return tool
    return "email" if "@" in destination or destination == "Email" else ""


def name_in(text: str) -> str | None:
    """The agent name a request gives, as a slug ("«Relances Échues»" -> relances-echues)."""
    written = name_as_written(text)
    return (agent_name(written) or None) if written else None


# A written name runs on over capitalized words, and the small words between them: "chama de
# Relatório de Faltas", "Crash Morning Brief".
_NAME_GOES_ON_RE = re.compile(
    r"(?:\s+(?:(?:de|da|do|dos|das|des|du|di|del|della|von|van|der|of|the|for|and|und|e|y|et)"
    r"\s+){0,2}[A-ZÀ-Þ][\w-]*){1,4}"
)


def name_as_written(text: str) -> str | None:
    """The name as the user wrote it: quoted («Relances Échues»), or after "called"/"chamado",
    running on while words are capitalized ("chamado Pedidos Atrasados que …")."""
    quoted = _QUOTED_NAME_RE.search(text)
    if quoted:
        return quoted.group(1).strip()
    # "Name it jira-overdue-monitor. Actually no, call it Platform Overdue Radar": the last.
    match = next(reversed(list(_NAME_RE.finditer(text))), None)
    if match is None:
        return None
    return _runs_on(text, match.group(1), match.end())


def _runs_on(text: str, name: str, end: int) -> str:
    """``name`` (found in ``text`` up to ``end``) with the capitalized words after it, when
    it is capitalized itself."""
    more = _NAME_GOES_ON_RE.match(text, end) if name[:1].isupper() else None
    return name + more.group(0) if more else name


def renamed_as_written(text: str, first: str) -> str:
    """The new name of a rename as the user wrote it: ``first`` (what the entity reader found,
    lowercased) with its case, and the capitalized words after it ("rename sentry-digest to
    Crash Morning Brief")."""
    found = list(re.finditer(rf"(?<![\w-]){re.escape(first)}(?![\w-])", text, re.IGNORECASE))
    if not found:
        return first
    return _runs_on(text, found[-1].group(0), found[-1].end())


def scope_in(text: str) -> str | None:
    """The quoted sheet, board or project, or the repository, a request names (as written)."""
    named = _QUOTED_NAME_RE.search(text)
    found = [
        (m.group(1) or m.group(2)).strip()
        for m in _QUOTED_RE.finditer(text)
        if not (named and named.start() <= m.start() < named.end())
        # "le canal Teams « Ventes »" names where results go, not where it looks.
        and not _A_CHANNEL_BEFORE_RE.search(text[max(0, m.start() - 30) : m.start()])
    ]
    found += [
        m.group(1)
        for m in _REPO_RE.finditer(text)
        # "the repo acme/web", "GitHub … acme/web"; not "and/or", "24/7" or "Asia/Kolkata".
        if _REPO_CUE_RE.search(text[max(0, m.start() - 40) : m.start()]) and not zone_in(m.group(1))
    ]
    return ", ".join(dict.fromkeys(found)) or None


def strip_acknowledgement(text: str) -> str:
    """The text without a leading "ok", "yes please", "sí", "bitte"…"""
    return _ACK_RE.sub("", text.strip()).strip()


def without_name(text: str) -> str:
    return _NAME_RE.sub("", text)


def is_acknowledgement(text: str) -> bool:
    return not _ACK_RE.sub("", text.strip()).strip(" ,.!")


def is_question(text: str) -> bool:
    return bool(_QUESTION_RE.search(text.strip()))


def is_one_off(text: str) -> bool:
    return bool(_ONE_OFF_RE.search(text))


def read_slots(
    text: str,
    *,
    have: Mapping[str, str],
    asking: Sequence[str],
    zone: str,
    opening: bool,
) -> dict[str, str]:
    """The details ``text`` adds to what the wizard ``have``s (only what it changes)."""
    if is_acknowledgement(text):
        return {}
    body = _ACK_RE.sub("", text.strip()).strip()
    body = _TIME_TAKEN_BACK_RE.sub(" ", body)  # "at 10 -- no wait 11am" is at 11am
    found = extract_entities(body)
    slots: dict[str, str] = {}
    destination = destination_in(body, found.get("destination"))
    # "I meant Linear, not Asana": the tool taken back is not the source.
    sources = [tool for tool in found.get("source", "").split(",") if tool]
    source = next((tool for tool in sources if not taken_back(tool, body)), "")
    if not source and _LINEAR_RE.search(body):
        source = "linear"  # "scroll through Linear": the tool, written as its name
    dest_tool = _tool_of(destination or "")
    # A tool named as where results go ("in Slack", "por Slack") is not the source; nor does
    # a later mention replace a source already given unless the user says so.
    if (
        source
        and source != dest_tool
        and (not have.get("source") or re.search(_NEW_SOURCE, body, re.IGNORECASE))
    ):
        slots["source"] = source
    if destination:
        slots["destination"] = destination
    written = name_as_written(body)
    name = agent_name(written) if written else ""
    if name:
        slots["name"] = name
        if written and written != name:
            slots["title"] = written  # «Relances Échues», "Pedidos Atrasados", as written
    scope = scope_in(body)
    if scope and scope not in have.get("scope", ""):
        slots["scope"] = ", ".join(filter(None, [have.get("scope", ""), scope]))
    when = found.get("schedule") or found.get("frequency")
    if not when and have.get("frequency", "").startswith(("weekly", "biweekly")):
        # "nicht freitag sondern donnerstag": a new day for a weekly schedule.
        days = find_days(normalize(body))
        clock = find_time(normalize(body))
        when = " ".join(["weekly", *days, *([clock] if clock else [])]) if days else None
    said_zone = zone_in(body)
    if when or said_zone or (have.get("frequency") and (find_time(normalize(body)))):
        compact = _merge_when(have.get("frequency", ""), when, body)
        if compact and not re.search(r"\d{1,2}:\d{2}", compact):
            for part, clock in _PART_OF_DAY.items():
                if part in compact.split():
                    # "every morning": the usual hour, said back in the summary.
                    compact = compact.replace(part, clock)
                    slots["defaulted"] = "an exact time"
        if compact:
            slots["frequency"] = compact
            slots["zone"] = said_zone or have.get("zone") or zone
        elif said_zone:
            slots["zone"] = said_zone
    # "we moved off Trello, it's Asana now: tasks completed in …": what it watches goes too.
    moved = bool(slots.get("source") and have.get("source") and slots["source"] != have["source"])
    if opening or moved or not have.get("trigger"):
        watched = what_it_watches(body)
        colon = _AFTER_COLON_RE.search(body) if moved and not watched else None
        if colon:
            watched = _clean(colon.group("what"))  # "It's Asana now: tasks completed in …"
        if watched and (opening or moved or not have.get("trigger")):
            slots["trigger"] = watched
    purpose = _AGENT_FOR_RE.search(body)
    if purpose and opening:
        about = _clean(purpose.group("what"))
        if len(about) >= 3 and not _only_a_tool(about):  # "an automation for Asana"
            slots["about"] = about
    job = _job(body)
    if job and not have.get("task"):
        slots["task"] = job
    does = what_it_does(without_name(body))  # "lager-warnung" names it; it is no alert
    if does and (not have.get("action") or does != "Send the results"):
        slots["action"] = does
    if not opening and not is_question(body):
        _free_text(without_name(body), slots, have, asking)
    return slots


# "Linear" is also an English word: the tool only when written as a name, inside a sentence.
_LINEAR_RE = re.compile(r"(?<![.!?]\s)(?<!^)(?<=\s)Linear\b")


def taken_back(tool: str, text: str) -> bool:
    word = re.escape(tool.split("_")[0])
    return bool(
        re.search(
            # Not a bare "no": "no asana" is Portuguese for "in Asana".
            rf"\b(?:not|instead of|rather than|nicht|pas|n[ãa]o|moved off|moving off|"
            rf"moved away from|switched (?:away )?from|migrated (?:away )?from|"
            rf"no longer (?:use|on|in)|stopped using|dropped|ditched|weg von|dejamos)"
            rf"\s+(?:from\s+|in\s+)?{word}",
            text,
            re.IGNORECASE,
        )
    )


_PART_OF_DAY = {"morning": "09:00", "afternoon": "14:00", "evening": "18:00", "night": "22:00"}


def _merge_when(before: str, when: str | None, text: str) -> str | None:
    """A schedule from this answer, completed by the frequency asked about before."""
    if when and Schedule(when, "UTC").complete:
        return when
    new_days = [d for d in _DAYS if when and d in when.split()]
    if before and new_days and not any(d in before.split() for d in new_days):
        # "actually make it tuesdays": the new day replaces the old one, the time stays.
        kept = [w for w in before.split() if w not in _DAYS]
        at = next((i for i, w in enumerate(kept) if re.fullmatch(r"\d{1,2}:\d{2}", w)), len(kept))
        return " ".join([*kept[:at], *new_days, *kept[at:]])
    clock = find_time(normalize(text))
    if before and clock and not when:
        # "yes but at 8 instead": the new time replaces the old one, the days stay.
        kept = [w for w in before.split() if not re.fullmatch(r"\d{1,2}:\d{2}", w)]
        return " ".join([*kept, clock])
    if before:
        merged = find_schedule(normalize(f"{before} {text}"))
        if merged:
            return merged[0]
    return when


_INTERJECTION_RE = re.compile(
    r"(?:\W*\b(?:ah|oh|uh|um|hmm|no|non|nope|nein|nee|n[aã]o|wait|attends|warte|espera|actually|"
    r"en fait|eigentlich|rather|plut[oô]t|instead|I mean|je veux dire|mejor|melhor|sorry|pardon|"
    r"oops)\b\W*)+",
    re.IGNORECASE,
)


def _free_text(
    body: str, slots: dict[str, str], have: Mapping[str, str], asking: Sequence[str]
) -> None:
    """A plain answer to the free-text question being asked ("revenue by region")."""
    open_fields = [f for f in asking if f in ("trigger", "action") and not have.get(f)]
    parts = [p.strip(" .!") for p in re.split(r"\s*[,;]\s*|\s+and\s+(?=\w+ alerts?\b)", body)]
    plain = [
        p
        for p in parts
        if len(p) >= 3
        and not extract_entities(p)
        and not _NAME_RE.search(p)
        and not is_acknowledgement(p)
        and not zone_in(p)  # "9:15, Asia/Kolkata": a time zone, not what it watches
        and not find_days(normalize(p))  # "nicht freitag sondern donnerstag": a day
        and not find_time(normalize(p))  # "plutôt 7h45": a time put right
        and not _INTERJECTION_RE.fullmatch(p)  # "ah non", "oh wait, no"
    ]
    if open_fields and not slots.get(open_fields[0]) and plain:
        slots[open_fields[0]] = plain.pop(0)[:160]
    # What answers no question still matters ("the PLATFORM project, past due date").
    used = " ".join(v for v in slots.values()).lower()
    extra = [p for p in plain if p.lower() not in used]
    if extra:
        slots["details"] = "; ".join(filter(None, [have.get("details", ""), *extra]))[:300]
