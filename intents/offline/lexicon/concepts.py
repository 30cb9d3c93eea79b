"""The lexicon's questions and concepts: asking for information, the platform, implicit requests."""

from __future__ import annotations

CONCEPTS: tuple[tuple[str, str, str], ...] = (
    # --- asking for information ---
    ("list", "V_LIST",
     "list|lists|listed|listing|lista|listar|listame|liste|listez|"
     "lister|auflist*|enumera*|enumer*|inventory|rundown|roster"),
    ("show", "V_SHOW",
     "show*|display*|see|view|views|viewing|tell|tell me|give me|muestr*|"
     "mostr*|ensename|ensename|montr*|affich*|zeig*|anzeig*|visualiz*|look at|pull up|"
     "bring up|walk me through|remind me what|let me see|let me know|ver|veja|vea|voir|"
     "sehen|mir zeigen"),
    ("check", "V_CHECK",
     "check*|verify*|verific*|confirm*|pruf*|pruef*|ueberpruf*|uberpruf*|"
     "kontrollier*|controle*|controla*|revis*"),
    ("what", "Q_WHAT",
     "what|whats|which|wat|cual|cuales|quel|quels|quelle|quelles|welche*|"
     "welcher|quais|qual|que es|que son|qu est|quest"),
    ("how", "Q_HOW",
     "how|hows|hw|como funciona|comment ca marche|comment fonctionne|"
     "wie funktioniert|como funciona|wie|como funcionan|como funcionam|comment fonctionnent|"
     "comment marche|comment marchent|wie funktionieren|come funziona|come funzionano"),
    ("howmany", "Q_HOWMANY",
     "how many|how much|how often|cuantos|cuantas|combien|wie viele|wieviele|quantos|quantas"),
    ("when", "Q_WHEN",
     "when|cuando|quand|wann|quando|what time|a que hora|quelle heure|que horas|um wie viel uhr"),
    ("where", "Q_WHERE",
     "where|donde|adonde|a donde|wohin|onde|para onde|ou deja|ou est-ce|ou est ce|ou ca|"
     "ou exactement|publie ou|poste ou|envoie ou"),
    ("who", "Q_WHO", "who|whom|quien|quienes|qui|wer|quem"),
    ("why", "Q_WHY",
     "why|por que|porque|pourquoi|warum|wieso|por que|y did|y is|y does|y was|y isnt|"
     "y didnt|y doesnt|y are|y do|y wont|y cant|perche"),
    ("status", "N_STATUS",
     "status*|state|progress|health|healthy|up and running|working|succeed*|success*|"
     "go well|went well|work out|worked out|flagged anything|find anything|found anything|"
     "estado|statut|etat|zustand|situacao|situation|uptime|still running|broken|"
     "is it running|did it run|ran ok|done yet|finished yet|ready yet|over yet|"
     "ya termino|deja termine|c est fini|schon fertig|ja terminou|ja acabou"),
    ("history", "N_HISTORY",
     "history|log|logs|historial|historique|verlauf|historico|"
     "last run|latest run|recent runs|previous run|previous runs|past runs|run history|"
     "executions|ejecuciones|executions|ausfuhrungen|execucoes|result|results|resultado*|"
     "resultat*|ergebnis*|output|outputs|error|errors|fail|fails|failed|failing|failure*|"
     "fehler*|fehlgeschlag*|erreur*|fallo*|fallado|falha*|falhou|echec*|crashed|"
     "last time it ran|audit trail|activity|actividad|activite|aktivitat|atividade"),
    ("my", "POSS",
     "my|our|mine|ours|mis|mes|meine|meinen|meiner|meines|unsere|unseren|"
     "unserer|meus|minhas|mi|mon|ma|nos|notre|nuestros|nuestras|nuestro|nuestra|nossos|"
     "nossas|nosso|nossa"),
    ("capabilities_q", "Q_CAPAB",
     "what can you do|what do you do|what are you able|"
     "what can this do|what can the platform do|what is this|what are you|who are you|"
     "que puedes hacer|que sabes hacer|que peux-tu faire|que peux tu faire|"
     "que pouvez-vous faire|que pouvez vous faire|was kannst du|was kann die plattform|"
     "o que voce pode fazer|o que voce faz|o que vc faz|what features|what options|"
     "what this can do|what this thing can do|what it can do|what you can do|"
     "no idea what|what this does|what this tool does|what kind of things|what sort of things|"
     "what kinds of things|what can it do|what else can you do|what do you offer|"
     "how does the platform work|how does this platform work|how does it work|"
     "how do agents work|how do skills work|how does this thing work|"
     "getting started|get started|how does this work|how do i use|how to use|"
     "what are my options|que hago aqui|menu|what sorts of things|what can you handle|"
     "what are you capable of|what are you good at|what do you handle"),
    ("help", "V_HELP",
     "help*|ayud*|aide|aider|aidez|aidez-moi|hilf*|hilfe|ajud*|assist|assisting|support|soporte"),
    ("detail", "N_DETAIL",
     "detail*|info|infos|information|explain*|describe*|description*|"
     "documentation|docs|guide|tutorial|detalle*|einzelheit*|detalhe*|explica*|erklar*|"
     "erklaer*|beschreib*|decri*|descri*|about|sobre|uber|ueber|a propos|config of|"
     "configuration of|settings of|what does it do|what it does|overview"),
    ("exist", "V_EXIST",
     "do i have|do we have|is there|are there|exists|existing|existen|"
     "hay|il y a|gibt es|existe|existem|tenemos|tengo|avons|haben wir|habe ich|temos|tenho|"
     "available|disponible*|verfugbar|disponive*|active|activos|actifs|aktiv|ativos|"
     "currently|running right now|set up already|already"),
    # --- the platform ---
    ("user", "N_USER",
     "user|users|member|members|teammate*|colleague*|"
     "employee*|seat|seats|usuario*|miembro*|utilisateur*|membre*|benutzer*|nutzer*|"
     "mitglied*|mitarbeiter*|membro*|colaborador*|collaborat*|contractor*|intern|interns|"
     "guest*|new hire*|staff|left the company|still has access|offboard*|onboard*|"
     "access to the workspace|workspace access"),
    ("role", "N_ROLE",
     "role|roles|rol|roles|rolle*|papel|papeis|permission*|permiso*|"
     "berechtigung*|permiss*|access|acceso|acces|zugriff*|zugang|acesso|admin|admins|"
     "administrator*|administrador*|owner|owners|viewer|viewers|editor|editors|privilege*|"
     "rights|derechos|droits|rechte|direitos|read-only|read only|superuser"),
    ("invite", "V_INVITE",
     "invit*|onboard*|offboard*|deactivat*|suspend*|ban|banned|"
     "revok*|grant*|promot*|demot*|einlad*|lade ein|convid*|kick out|lock out|unlock*|"
     "reactivat*|provision*|deprovision*|assign*|asign*|attribu*|zuweis*|atribu*"),
    ("add", "V_ADD",
     "add|adds|adding|added|anadir|anade|agrega*|ajout*|hinzufug*|"
     "hinzufueg*|fug hinzu|fuge hinzu|adicion*|inclu*|cc me|cc us|bcc me|loop me in|loop in"),
    ("apikey", "N_KEY",
     "api key|api keys|apikey|apikeys|api-key|api-keys|key|keys|token|"
     "tokens|secret|secrets|credential*|clave*|cle|cles|schlussel*|schluessel*|chave*|"
     "password*|contrasena*|mot de passe|passwort*|senha*|access token|personal token"),
    ("rotate", "V_ROTATE",
     "rotat*|regenerat*|reset*|renew*|refresh the|roll the|rota|"
     "rotar|renouvel*|erneuer*|renov*|expire*|expir*"),
    ("billing", "N_BILLING",
     "bill|bills|billing|billed|invoice*|payment*|pay|paying|paid|"
     "subscription*|pricing|price*|charge*|charged|credit card|card on file|upgrade*|"
     "downgrade*|quota*|usage limit*|spend limit|spending|plan|plans|tier|factur*|fatur*|"
     "pago*|suscrip*|abonnement*|abo|rechnung*|zahlung*|preis*|plano|assinatura*|cobranc*|"
     "abbonament*|fatturazion*|piano annuale|piano mensile|"
     "pagamento*|tarif*|paiement*|receipt*|refund*|vat|tax id|enterprise plan|pro plan|"
     "free plan|trial|licen*|cost|costs|costing"),
    ("integration", "N_INTEG",
     "integrat*|connection*|connect|connects|connected|"
     "connecting|disconnect*|reconnect*|oauth|sso|saml|scim|webhook*|integracion*|"
     "integracao|integracoes|conex*|conect*|connexion*|connecter|verbind*|anbind*|"
     "authoriz*|authoris*|autoriz*|autoris*|link my|link our|unlink*|hook up|plug in|"
     "ligar a conta|liga a conta|religa*|volta a ligar"),
    ("tenant", "N_TENANT",
     "tenant*|workspace*|organization*|organisation*|org|orgs|single sign-on|"
     "single sign on|sign-on|okta|azure ad|entra id|active directory|ldap|"
     "company account|team account|domain|domains|2fa|mfa|two-factor|two factor|"
     "audit log*|data retention|retention policy|ip allowlist|allowlist|whitelist|"
     "espacio de trabajo|espace de travail|arbeitsbereich|organizacion|organizacao|"
     "entreprise|empresa|firma|mandant*|inquilino"),
    ("settings", "N_SETTINGS",
     "setting|settings|preference*|ajuste*|configuracion*|"
     "parametre*|parametr*|einstellung*|configurac*|timezone|time zone|zona horaria|"
     "fuseau horaire|zeitzone|fuso horario|language setting|branding|logo|notifications "
     "settings|account settings"),
    ("account", "N_ACCOUNT",
     "account|accounts|cuenta|cuentas|compte|comptes|konto|konten|"
     "conta|contas|profile|profil|perfil|login|logins|sign in|signin|sign-in"),
    # --- implicit requests ---
    ("pain", "PAIN",
     "late|waste*|wasting|manual|tedious|pain|painful|annoy*|hassle|boring|"
     "repetitive|time-consuming|time consuming|forget*|forgot*|forgotten|miss|misses|"
     "missed|missing|behind|overwhelm*|drown*|chasing|chase|struggl*|hate|frustrat*|mess|"
     "messy|slow|error-prone|nightmare|headache|chore|grind|drudgery|by hand|copy-paste|"
     "copy paste|copying|pasting|nobody|no one|someone has to|have to|has to|spend*|spent|"
     "takes forever|takes ages|takes hours|eats up|sick of|tired of|fed up|keep forgetting|"
     "slip past|slips past|slipping past|slip through|slips through|slipping through|"
     "fall through the cracks|falls through the cracks|falling through the cracks|"
     "go unnoticed|goes unnoticed|going unnoticed|unnoticed|"
     "always|constantly|every single|tarde|perd*|manualmente|tedios*|aburrid*|retard*|"
     "fastidi*|penible|manuellement|spat|spaet|verschwend*|muhsam|muehsam|nervig|manuell|"
     "atras*|cansad*|harto|harta|marre|satt|pierdo|perdemos|perdons|verlieren|perdemos|"
     "olvid*|oubli*|vergess*|esquec*|siempre|toujours|immer|sempre|a mano|a la main|"
     "von hand|a mao|horas|heures|stunden|hours"),
    ("wish", "WISH",
     "wish|would be nice|would love|ideally|want to stop|is there a way|"
     "any way|anyway to|possible|could you|can you|can the platform|can this|can it|"
     "could the platform|is it possible|ojala|me gustaria|quisiera|j aimerais|"
     "je voudrais|voudrais|ich wunsche|ich mochte|ich moechte|hatte gern|gostaria|queria|"
     "puedes|pueden|peux-tu|pouvez-vous|kannst du|konnen sie|voce pode|vc pode|"
     "podes|pode|help us|help me|helfen|would it be|could we|can we|any chance"),
    ("recur", "RECUR",
     "every|each|daily|weekly|monthly|hourly|nightly|yearly|quarterly|evry|evrey|nitely|"
     "every nite|each nite|dialy|annually|biweekly|fortnightly|recurring|recurrent|"
     "regularly|routinely|periodic*|"
     "schedule|scheduled|scheduling|schedules|sched|schd|cron|cada|diario|diaria|diariamente|semanal|"
     "semanalmente|mensual|mensualmente|chaque|quotidien*|hebdomadaire*|mensuel*|"
     "jeden|jede|jeder|jedes|toda|todo|taglich|taeglich|wochentlich|woechentlich|monatlich|"
     "stundlich|"
     "mensal|mensalmente|todos los|todas las|tous les|toutes les|todos os|todas as|"
     "each morning|every morning|every evening|every night|weekdays|workdays|werktags|"
     "werktag|werktagen|wochentags|dias uteis|dias habiles|jours ouvres|"
     "business days|on a schedule|periodically|automatically|automaticamente|"
     "automatiquement|automatisch|whenever|every time|each time|cada vez|a chaque|"
     "jedes mal|sempre que|horario|programad*|programm*|planifi*|zeitplan|agend*|"
     "ogni|settimanale|settimanalmente|mensile|mensilmente|quotidianamente|giornalmente|"
     "twice a day|twice daily|twice a week|three times a day|two times a day|"
     "dos veces al dia|deux fois par jour|zweimal taglich|zweimal am tag|duas vezes por dia"),
    ("timeunit", "TIMEUNIT",
     "day|days|week|weeks|month|months|hour|hours|minute*|"
     "morning|mornings|evening|evenings|night|nights|afternoon*|weekday|weekend*|"
     "monday|mondays|tuesday|tuesdays|wednesday|wednesdays|thursday|thursdays|friday|"
     "fridays|saturday|saturdays|sunday|sundays|lunes|martes|miercoles|jueves|viernes|"
     "sabado|domingo|lundi|lundis|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag*|"
     "dienstag*|mittwoch*|donnerstag*|freitag*|samstag*|sonntag*|segunda-feira|"
     "terca-feira|quarta-feira|quinta-feira|sexta-feira|dia|dias|semana|semanas|hora|"
     "manana|mananas|jour|jours|semaine|semaines|mois|heure|matin|matins|soir|tag|tage|"
     "woche|wochen|monat|monate|stunde|morgens|abend|abends|manha|noite|tarde|mes|meses|feira|"
     "end of month|eom|eod|end of day|end of week|quarter|q1|q2|q3|q4|"
     "giorno|giorni|settimana|settimane|mese|mesi|minuti|mattina|mattine|sere|"
     "lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica"),
    ("source", "SRC", "__source__"),
    ("chat", "CHAT", "__chat__"),
    ("email", "CHAT",
     "email|emails|e-mail|e-mails|mail|mails|inbox|correo|correos|courriel*|"
     "message|messages|sms|text message|channel|channels|canal|kanal|dm|dms"),
    ("data", "N_DATA",
     "data|dataset*|database|databases|spreadsheet*|sheet|sheets|table|"
     "tables|records|rows|csv|excel|datos|donnees|daten|dados|tickets|ticket|leads|lead|"
     "deals|pipeline data|revenue|sales|churn|customers|customer|orders|invoices data|"
     "pages|documents|docs folder|files|file|pdf|pdfs|contracts|emails data|feedback|"
     "reviews|surveys|crm"),
)  # fmt: skip
