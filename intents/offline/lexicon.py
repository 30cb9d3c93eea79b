"""Synonym lexicon of the offline classifier: surface forms to canonical words and concepts.

Every surface form is written accent-stripped and lower-case, the way ``offline_text``
normalizes input. A trailing ``*`` makes a form a prefix (morphology: "automatizar",
"automatisieren" and "automation" share ``automat*``). Forms with spaces are phrases.
Foreign forms map to the English canonical word, so word and bigram features learned from
English training sentences carry over to Spanish, French, German and Portuguese.
"""

from __future__ import annotations

# (canonical word, concepts separated by spaces, surface forms separated by "|")
GROUPS: tuple[tuple[str, str, str], ...] = (
    # --- creating things ---
    (
        "create",
        "V_CREATE",
        "create*|creat*|build*|built|develop*|design*|craft*|spin up|spin off|set up|setup|"
        "setting up|put together|whip up|establish*|crear|creo|creame|crea|creas|cree|creemos|"
        "creen|creer|creez|creons|cree-moi|construir|construye|construya|construyas|"
        "construis|construisez|construire|erstell*|anleg*|leg an|lege an|bauen|baue|baut|bau|"
        "criar|crie|cria|criem|criando|crio|construa|construam|montar|monte|monta|armar|arma|"
        "generame|erzeug*|bastel*|creare|creami|costruire|costruisci|impostare",
    ),
    (
        "new",
        "ADJ_NEW",
        "new|nuevo|nueva|nuevos|nuevas|nouveau|nouvelle|nouveaux|neu|neue|neuen|"
        "neuer|neues|novo|nova|novos|novas|another|fresh|brand new|otro|otra|autre|weitere*",
    ),
    (
        "make",
        "V_MAKE",
        "make|makes|making|made|hacer|haz|hazme|hagas|haga|faire|fais|faites|"
        "machen|mach|macht|fazer|faca|faz|fazes",
    ),
    (
        "configure",
        "V_CONFIGURE",
        "configur*|konfigur*|einricht*|richte ein|richten ein|"
        "mettre en place|mets en place|poner en marcha|implement*",
    ),
    (
        "automate",
        "V_AUTOMATE",
        "automat*|auto-*|autonom*|on autopilot|autopilot|hands-free|"
        "hands free|sin intervencion|sans intervention|without anyone|without anybody|on its own|"
        "by itself|by themselves|without me|without lifting a finger|hands off|hands-off|"
        "solo|von selbst|sozinho|tout seul",
    ),
    (
        "agent",
        "N_AGENT",
        "agent|agents|agente|agentes|agenten|bot|bots|helper|helpers|chatbot*|robot*|robo|"
        "robos|workflow*|assistant|assistants|asistente*|assistente*|pipeline*|routine*|flujo*|"
        "flux|fluxo*|ablauf|ablaufe|job|jobs|automation|automations|automatizacion*|"
        "automatisation*|automatisierung*|automacao|automacoes|worker|workers",
    ),
    (
        "monitor",
        "V_WATCH",
        "monitor*|watch*|track*|keep an eye|keep tabs|keeps an eye|keeps tabs|keeping tabs|"
        "keeping an eye|"
        "remind*|vigil*|surveill*|uberwach*|ueberwach*|monitore*|acompanh*|observ*|scan*|"
        "escane*|watchdog|look out for|flag*|detect*|alert me|notify me|ping me|warn*|"
        "avisa*|avise*|previen*|benachrichtig*",
    ),
    # --- skills ---
    (
        "skill",
        "N_SKILL",
        "skill|skills|capabilit*|abilit*|tool|tools|function|functions|"
        "plugin*|plug-in*|extension*|capacidad*|habilidad*|herramienta*|competenc*|capacite*|"
        "outil*|fahigkeit*|faehigkeit*|werkzeug*|funktion*|habilidade*|capacidade*|ferramenta*|"
        "funcao|funcoes|funcion|funciones|fonction|fonctions|module|modules|recipe for agents|"
        "building block*|connector*|integracion de habilidad|know-how|knowhow",
    ),
    (
        "teach",
        "V_TEACH",
        "teach*|taught|learn*|ensen*|apprend*|beibring*|bring bei|"
        "bringe bei|bring ihm bei|lehr*|ensin*|aprend*|instruct it|show it how|show them how",
    ),
    (
        "reusable",
        "ADJ_REUSE",
        "reusable|re-usable|reuse*|re-use*|reutiliz*|reutilis*|"
        "wiederverwend*|shareable|sharable|shared|generic|any agent|all agents|every agent|"
        "all my agents|all our agents|other agents|every bot|all bots|every assistant|each agent|"
        "all assistants|any of my automations|any automation|every workflow|any workflow|"
        "every automation|any bot|any of the agents|all of the agents|all of our agents|"
        "todos los agentes|"
        "tous les agents|alle agenten|todos os agentes|across agents|plug into",
    ),
    (
        "able",
        "ADJ_ABLE",
        "able|capable|know how|knows how|be able|puedan|puissent|konnen|"
        "koennen|possam|podria|pourrait|consigam",
    ),
    # --- running things ---
    (
        "run",
        "V_RUN",
        "run|runs|running|rerun*|re-run*|execut*|trigger*|launch*|kick off|"
        "kick-off|kickoff|kicks off|fire off|fire up|invoke*|ejecut*|corre|correr|corra|corre lo|"
        "lanza*|lanc*|demarr*|declench*|ausfuhr*|ausfuehr*|fuhr aus|fuhre aus|fuehr aus|"
        "starte|starten|startet|laufen lassen|lass laufen|lauf|rodar|roda|rode|rodando|rodem|"
        "dispar*|iniciar|inicia|inicie|arranc*|go ahead and run|spin it|process it|fire it off|"
        "fire that off|kick it off|retry|retries|retrying|re-try|esegui|eseguilo|eseguire|avvia|"
        "avvialo|avviare|fallo partire|fai partire|give it a spin|a spin|take it for a spin",
    ),
    (
        "start",
        "V_START",
        "start|starts|started|starting|begin|comienza|commence*|beginn*|comeca|comece",
    ),
    (
        "now",
        "T_NOW",
        "now|right now|immediately|asap|straight away|right away|this minute|"
        "instantly|at once|ahora|ahora mismo|ya mismo|enseguida|maintenant|tout de suite|"
        "immediatement|jetzt|sofort|gleich|agora|ja ja|imediatamente|agorinha|on demand|"
        "manually|manualmente|manuellement|manuell",
    ),
    (
        "today",
        "T_TODAY",
        "today|tonight|this morning|this afternoon|hoy|aujourd hui|"
        "aujourdhui|heute|hoje|this week|this month|yesterday|ayer|hier|gestern|ontem",
    ),
    (
        "once",
        "T_ONCE",
        "once|one-off|one off|one time|one-time|just this once|single run|"
        "una vez|une fois|einmal|uma vez",
    ),
    (
        "again",
        "T_AGAIN",
        "again|once more|one more time|another run|de nuevo|otra vez|"
        "de nouveau|encore|nochmal|noch einmal|nochmals|erneut|wieder|de novo|novamente|"
        "outra vez|repeat*|repet*|wiederhol*|redo|refais|refaire|refaites|rehaz|rehazlo|"
        "rehacer|refaz|refazer|refaca",
    ),
    (
        "same",
        "ADJ_SAME",
        "same|last time|like before|as before|previous one|mismo|misma|"
        "meme|gleiche*|selbe*|mesmo|mesma|usual|the usual",
    ),
    ("do", "V_DO", "do|does|doing"),
    (
        "did",
        "Q_PAST",
        "did|didnt|has it|have they|was it|were there|was there|have there been|"
        "has there been|hat er|ist er|a-t-il|ha sido|se ha|foi|ja rodou",
    ),
    (
        "ran",
        "V_RAN",
        "ran|went out|gone out|fired|got triggered|was triggered|corrio|se ejecuto|a tourne|"
        "ist gelaufen|lief|rodou|correu",
    ),
    (
        "unsure",
        "Q_UNSURE",
        "not sure if|not sure whether|know whether|know if|find out whether|find out if|"
        "wondering if|wondering whether|curious whether|curious if|no idea if|no idea whether|"
        "any idea if|any idea whether|no se si|je ne sais pas si|weiss nicht ob|nao sei se|"
        "not sure where|not sure when|no idea where|no idea when|lost on where|lost on how|"
        "dont know where|dont know whether|dont know if|unclear where|unclear whether|"
        "je ne sais meme pas si|je ne sais pas ou|ne sais pas quand|no se ni si|no se donde|"
        "no se cuando|weiss nicht wo|weiss nicht wann|nao sei onde|nao sei quando",
    ),
    (
        "incapable",
        "INCAPABLE",
        "cant|cannot|unable|dont know how|doesnt know how|do not know how|does not know how|"
        "dont understand|doesnt understand|not able|no way to|lack*|missing the ability|"
        "no puede*|no pueden|no saben|ne peut pas|ne peuvent pas|ne savent pas|kann nicht|"
        "konnen nicht|koennen nicht|nao consegue*|nao sabem|nao pode*",
    ),
    (
        "urgent",
        "T_URGENT",
        "yet|still|urgent*|hurry|soon|in an hour|in ten minutes|in 10 minutes|"
        "in five minutes|in 5 minutes|before the meeting|before standup|before my meeting|"
        "starts soon|deadline|waiting for|right before|ya deberia|toujours pas|immer noch|"
        "ainda nao|todavia",
    ),
    (
        "chat_only",
        "CHAT_ONLY",
        "no need to do anything|nothing to do|just wanted to vent|just venting|"
        "just wanted to say|just wanted to share|just saying|dont do anything|"
        "no action needed|just thinking out loud|procrastinating",
    ),
    (
        "generate",
        "V_GENERATE",
        "generat*|produc*|compil*|prepar*|draft*|write up|writeup|"
        "pull together|crunch*|put out|genera|generar|genere|generer|erstelle mir|gera|gerar|"
        "elabor*|redact*|redig*|crank out|churn out|pump out",
    ),
    (
        "get",
        "V_GET",
        "get|fetch*|grab*|pull|pulls|pulled|retrieve*|collect*|gather*|"
        "obten*|obtien*|recup*|hol|hole|holen|abrufen|busca*|buscar|pega|pegar|extract*|"
        "extrae*|extrai*|scrape*|sync*|import*|load*|download*|descarg*|telecharg*",
    ),
    (
        "summarize",
        "V_SUMMARIZE",
        "summar*|resum*|recap*|condens*|digest|tl;dr|tldr|"
        "zusammenfass*|fasse zusammen|fass zusammen|sintetiz*|synthes*",
    ),
    (
        "analyze",
        "V_ANALYZE",
        "analy*|analiz*|analis*|auswert*|examin*|investigat*|"
        "evaluat*|assess*|crunch the numbers|look into|dig into|break down|breakdown|audit",
    ),
    (
        "report",
        "N_REPORT",
        "report|reports|reporting|rpt|rptr|rprt|rpts|summary|summaries|digest*|recaps|"
        "briefing*|newsletter*|dashboard*|informe*|reporte*|rapport*|bericht*|relatorio*|"
        "resumo*|resumen*|presentation*|presentacion*|praesentation*|prasentation*|"
        "apresentacao|slides|slide deck|deck|chart*|graph*|kpi*|metrics|numbers|figures|"
        "updates|statistics|stats|forecast report|standup notes|minutes|riepilog*|riassunt*|"
        "rapporto|resoconto|rundown|run-down",
    ),
    (
        "send",
        "V_SEND",
        "send*|sent|post|posts|posting|posted|notify*|notif*|ping|message me|"
        "deliver*|push|pushes|share|forward*|drop it in|envia*|envie*|enviar|mandar|manda|"
        "mande|envoy*|envoi*|schick*|sende|senden|sendet|zustell*|publica*|publie*|poste*|"
        "text me|dm me|email me|e-mail me|mail me",
    ),
    # --- changing things ---
    (
        "change",
        "V_CHANGE",
        "chang*|modif*|update|updating|updated|edit|edits|editing|edited|"
        "resume|resumes|resumed|resuming|adjust*|tweak*|alter|alters|altered|altering|"
        "switch*|renam*|reschedul*|move it|move the|"
        "pause*|unpause*|disabl*|turn off|turn on|shut off|mute*|unmute*|cambi*|modific*|"
        "actualiz*|editar|edita|edite|renombr*|pausar|pausa|desactiv*|mettre a jour|mets a jour|"
        "renomm*|aender*|ander*|andere|aktualisier*|bearbeit*|umbenenn*|benenn*|anpass*|pass an|"
        "passe an|umstell*|stell um|verschieb*|mudar|mude|muda|mudem|alterar|altere|altera|"
        "atualiz*|renome*|deslig*|chg|chng|chnge|upd|upd8|updt|switch over|fix it so|"
        "set it to|set the|reconfigur*|"
        "restrict*|limit it|narrow*|expand it|extend it|add a step|include also|also include|"
        "exclude*|push it back|bump*|shift*|reactivat*|reativ*|reaktivier*|reactiv*|"
        "switch it back on|turn it back on|fortsetz*|setz fort|setze fort|setz ihn wieder fort|"
        "setze ihn fort|reanud*|reprend*|retom*|pausier*|suspend*|hold off|holds off|"
        "put on hold|put it on hold|on hold|flip on|flip off",
    ),
    (
        "instead",
        "ADV_INSTEAD",
        "instead|rather|anymore|any more|no longer|from now on|"
        "going forward|from here on|en lugar|en vez|a partir de ahora|plutot|au lieu|"
        "desormais|dorenavant|stattdessen|statt|ab jetzt|kunftig|kuenftig|kuftig|em vez|"
        "ao inves|em lugar|daqui em diante|a partir de agora|not anymore",
    ),
    (
        "it",
        "PRON_IT",
        "it|this one|that one|that agent|this agent|the agent|that bot|this bot|"
        "the bot|them|those|these|ese agente|este agente|cet agent|ce agent|diesen agenten|"
        "esse agente|este|ese|esa|esta|ihn|dieser|diesen",
    ),
    (
        "delete",
        "V_DELETE",
        "delet*|remov*|get rid of|kill*|destroy*|drop|borr*|elimin*|"
        "supprim*|losch*|loesch*|entfern*|exclu*|apag*|retire*|archiv*|decommission*|"
        "take down|tear down|shut down|shutdown",
    ),
    (
        "stop",
        "V_STOP",
        "stop|stops|stopping|stopped|halt*|detener|deten|para de|arrete*|"
        "arreter|stopp*|hor auf|aufhor*|parar|pare|cease",
    ),
    # --- asking for information ---
    (
        "list",
        "V_LIST",
        "list|lists|listed|listing|lista|listar|listame|liste|listez|"
        "lister|auflist*|enumera*|enumer*|inventory|rundown|roster",
    ),
    (
        "show",
        "V_SHOW",
        "show*|display*|see|view|views|viewing|tell|tell me|give me|muestr*|"
        "mostr*|ensename|ensename|montr*|affich*|zeig*|anzeig*|visualiz*|look at|pull up|"
        "bring up|walk me through|remind me what|let me see|let me know|ver|veja|vea|voir|"
        "sehen|mir zeigen",
    ),
    (
        "check",
        "V_CHECK",
        "check*|verify*|verific*|confirm*|pruf*|pruef*|ueberpruf*|uberpruf*|"
        "kontrollier*|controle*|controla*|revis*",
    ),
    (
        "what",
        "Q_WHAT",
        "what|whats|which|wat|cual|cuales|quel|quels|quelle|quelles|welche*|"
        "welcher|quais|qual|que es|que son|qu est|quest",
    ),
    (
        "how",
        "Q_HOW",
        "how|hows|hw|como funciona|comment ca marche|comment fonctionne|"
        "wie funktioniert|como funciona|wie|como funcionan|como funcionam|comment fonctionnent|"
        "comment marche|comment marchent|wie funktionieren|come funziona|come funzionano",
    ),
    (
        "howmany",
        "Q_HOWMANY",
        "how many|how much|how often|cuantos|cuantas|combien|wie viele|wieviele|quantos|quantas",
    ),
    (
        "when",
        "Q_WHEN",
        "when|cuando|quand|wann|quando|what time|a que hora|quelle heure|que horas|um wie viel uhr",
    ),
    (
        "where",
        "Q_WHERE",
        "where|donde|adonde|a donde|wohin|onde|para onde|ou deja|ou est-ce|ou est ce|ou ca|"
        "ou exactement|publie ou|poste ou|envoie ou",
    ),
    ("who", "Q_WHO", "who|whom|quien|quienes|qui|wer|quem"),
    (
        "why",
        "Q_WHY",
        "why|por que|porque|pourquoi|warum|wieso|por que|y did|y is|y does|y was|y isnt|"
        "y didnt|y doesnt|y are|y do|y wont|y cant|perche",
    ),
    (
        "status",
        "N_STATUS",
        "status*|state|progress|health|healthy|up and running|working|succeed*|success*|"
        "go well|went well|work out|worked out|flagged anything|find anything|found anything|"
        "estado|statut|etat|zustand|situacao|situation|uptime|still running|broken|"
        "is it running|did it run|ran ok|done yet|finished yet|ready yet|over yet|"
        "ya termino|deja termine|c est fini|schon fertig|ja terminou|ja acabou",
    ),
    (
        "history",
        "N_HISTORY",
        "history|log|logs|historial|historique|verlauf|historico|"
        "last run|latest run|recent runs|previous run|previous runs|past runs|run history|"
        "executions|ejecuciones|executions|ausfuhrungen|execucoes|result|results|resultado*|"
        "resultat*|ergebnis*|output|outputs|error|errors|fail|fails|failed|failing|failure*|"
        "fehler*|fehlgeschlag*|erreur*|fallo*|fallado|falha*|falhou|echec*|crashed|"
        "last time it ran|audit trail|activity|actividad|activite|aktivitat|atividade",
    ),
    (
        "my",
        "POSS",
        "my|our|mine|ours|mis|mes|meine|meinen|meiner|meines|unsere|unseren|"
        "unserer|meus|minhas|mi|mon|ma|nos|notre|nuestros|nuestras|nuestro|nuestra|nossos|"
        "nossas|nosso|nossa",
    ),
    (
        "capabilities_q",
        "Q_CAPAB",
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
        "what are you capable of|what are you good at|what do you handle",
    ),
    (
        "help",
        "V_HELP",
        "help*|ayud*|aide|aider|aidez|aidez-moi|hilf*|hilfe|ajud*|assist|assisting|support|soporte",
    ),
    (
        "detail",
        "N_DETAIL",
        "detail*|info|infos|information|explain*|describe*|description*|"
        "documentation|docs|guide|tutorial|detalle*|einzelheit*|detalhe*|explica*|erklar*|"
        "erklaer*|beschreib*|decri*|descri*|about|sobre|uber|ueber|a propos|config of|"
        "configuration of|settings of|what does it do|what it does|overview",
    ),
    (
        "exist",
        "V_EXIST",
        "do i have|do we have|is there|are there|exists|existing|existen|"
        "hay|il y a|gibt es|existe|existem|tenemos|tengo|avons|haben wir|habe ich|temos|tenho|"
        "available|disponible*|verfugbar|disponive*|active|activos|actifs|aktiv|ativos|"
        "currently|running right now|set up already|already",
    ),
    # --- the platform ---
    (
        "user",
        "N_USER",
        "user|users|member|members|teammate*|colleague*|"
        "employee*|seat|seats|usuario*|miembro*|utilisateur*|membre*|benutzer*|nutzer*|"
        "mitglied*|mitarbeiter*|membro*|colaborador*|collaborat*|contractor*|intern|interns|"
        "guest*|new hire*|staff|left the company|still has access|offboard*|onboard*|"
        "access to the workspace|workspace access",
    ),
    (
        "role",
        "N_ROLE",
        "role|roles|rol|roles|rolle*|papel|papeis|permission*|permiso*|"
        "berechtigung*|permiss*|access|acceso|acces|zugriff*|zugang|acesso|admin|admins|"
        "administrator*|administrador*|owner|owners|viewer|viewers|editor|editors|privilege*|"
        "rights|derechos|droits|rechte|direitos|read-only|read only|superuser",
    ),
    (
        "invite",
        "V_INVITE",
        "invit*|onboard*|offboard*|deactivat*|suspend*|ban|banned|"
        "revok*|grant*|promot*|demot*|einlad*|lade ein|convid*|kick out|lock out|unlock*|"
        "reactivat*|provision*|deprovision*|assign*|asign*|attribu*|zuweis*|atribu*",
    ),
    (
        "add",
        "V_ADD",
        "add|adds|adding|added|anadir|anade|agrega*|ajout*|hinzufug*|"
        "hinzufueg*|fug hinzu|fuge hinzu|adicion*|inclu*|cc me|cc us|bcc me|loop me in|loop in",
    ),
    (
        "apikey",
        "N_KEY",
        "api key|api keys|apikey|apikeys|api-key|api-keys|key|keys|token|"
        "tokens|secret|secrets|credential*|clave*|cle|cles|schlussel*|schluessel*|chave*|"
        "password*|contrasena*|mot de passe|passwort*|senha*|access token|personal token",
    ),
    (
        "rotate",
        "V_ROTATE",
        "rotat*|regenerat*|reset*|renew*|refresh the|roll the|rota|"
        "rotar|renouvel*|erneuer*|renov*|expire*|expir*",
    ),
    (
        "billing",
        "N_BILLING",
        "bill|bills|billing|billed|invoice*|payment*|pay|paying|paid|"
        "subscription*|pricing|price*|charge*|charged|credit card|card on file|upgrade*|"
        "downgrade*|quota*|usage limit*|spend limit|spending|plan|plans|tier|factur*|fatur*|"
        "pago*|suscrip*|abonnement*|abo|rechnung*|zahlung*|preis*|plano|assinatura*|cobranc*|"
        "abbonament*|fatturazion*|piano annuale|piano mensile|"
        "pagamento*|tarif*|paiement*|receipt*|refund*|vat|tax id|enterprise plan|pro plan|"
        "free plan|trial|licen*|cost|costs|costing",
    ),
    (
        "integration",
        "N_INTEG",
        "integrat*|connection*|connect|connects|connected|"
        "connecting|disconnect*|reconnect*|oauth|sso|saml|scim|webhook*|integracion*|"
        "integracao|integracoes|conex*|conect*|connexion*|connecter|verbind*|anbind*|"
        "authoriz*|authoris*|autoriz*|autoris*|link my|link our|unlink*|hook up|plug in|"
        "ligar a conta|liga a conta|religa*|volta a ligar",
    ),
    (
        "tenant",
        "N_TENANT",
        "tenant*|workspace*|organization*|organisation*|org|orgs|single sign-on|"
        "single sign on|sign-on|okta|azure ad|entra id|active directory|ldap|"
        "company account|team account|domain|domains|2fa|mfa|two-factor|two factor|"
        "audit log*|data retention|retention policy|ip allowlist|allowlist|whitelist|"
        "espacio de trabajo|espace de travail|arbeitsbereich|organizacion|organizacao|"
        "entreprise|empresa|firma|mandant*|inquilino",
    ),
    (
        "settings",
        "N_SETTINGS",
        "setting|settings|preference*|ajuste*|configuracion*|"
        "parametre*|parametr*|einstellung*|configurac*|timezone|time zone|zona horaria|"
        "fuseau horaire|zeitzone|fuso horario|language setting|branding|logo|notifications "
        "settings|account settings",
    ),
    (
        "account",
        "N_ACCOUNT",
        "account|accounts|cuenta|cuentas|compte|comptes|konto|konten|"
        "conta|contas|profile|profil|perfil|login|logins|sign in|signin|sign-in",
    ),
    # --- implicit requests ---
    (
        "pain",
        "PAIN",
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
        "von hand|a mao|horas|heures|stunden|hours",
    ),
    (
        "wish",
        "WISH",
        "wish|would be nice|would love|ideally|want to stop|is there a way|"
        "any way|anyway to|possible|could you|can you|can the platform|can this|can it|"
        "could the platform|is it possible|ojala|me gustaria|quisiera|j aimerais|"
        "je voudrais|voudrais|ich wunsche|ich mochte|ich moechte|hatte gern|gostaria|queria|"
        "puedes|pueden|peux-tu|pouvez-vous|kannst du|konnen sie|voce pode|vc pode|"
        "podes|pode|help us|help me|helfen|would it be|could we|can we|any chance",
    ),
    (
        "recur",
        "RECUR",
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
        "dos veces al dia|deux fois par jour|zweimal taglich|zweimal am tag|duas vezes por dia",
    ),
    (
        "timeunit",
        "TIMEUNIT",
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
        "lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica",
    ),
    ("source", "SRC", "__source__"),
    ("chat", "CHAT", "__chat__"),
    (
        "email",
        "CHAT",
        "email|emails|e-mail|e-mails|mail|mails|inbox|correo|correos|courriel*|"
        "message|messages|sms|text message|channel|channels|canal|kanal|dm|dms",
    ),
    (
        "data",
        "N_DATA",
        "data|dataset*|database|databases|spreadsheet*|sheet|sheets|table|"
        "tables|records|rows|csv|excel|datos|donnees|daten|dados|tickets|ticket|leads|lead|"
        "deals|pipeline data|revenue|sales|churn|customers|customer|orders|invoices data|"
        "pages|documents|docs folder|files|file|pdf|pdfs|contracts|emails data|feedback|"
        "reviews|surveys|crm",
    ),
    # --- chat spellings ---
    ("the", "", "teh|hte|da"),
    ("you", "", "u|ya|yu"),
    ("your", "", "ur|yr"),
    ("have", "", "hav|hve|haf"),
    ("please", "", "pls|plz|plse|pleas|plox|por favor|s il vous plait|s il te plait|bitte"),
    ("are", "", "r"),
    ("that", "", "dat|tht"),
    ("because", "", "cuz|coz|bc"),
    ("message", "CHAT", "msg|msgs"),
    # --- out of scope and small talk ---
    (
        "hello",
        "GREET",
        "hi|hello|hey|hiya|howdy|yo|hola|bonjour|salut|hallo|servus|ola|oi|"
        "good morning|good afternoon|good evening|buenos dias|buenas tardes|guten morgen|"
        "guten tag|bom dia|boa tarde|greetings|sup|whats up|wassup",
    ),
    (
        "thanks",
        "THANKS",
        "thanks|thank you|thank u|thx|ty|tysm|gracias|merci|danke|"
        "obrigado|obrigada|cheers|appreciate it|much appreciated|bye|goodbye|see you|"
        "adios|ciao|tschuss|tchau|au revoir|good night|cool|nice|awesome|great job|lol|lmao|"
        "haha|hahaha|hehe|wow|ok cool",
    ),
    (
        "chitchat",
        "OOS",
        "weather|que tiempo hace|quel temps|que tempo faz|weather forecast|rain|raining|sunny|snow|"
        "temperature|joke|jokes|"
        "funny|riddle|recipe|recipes|cook|cooking|bake|movie|movies|film|films|song|songs|"
        "music|lyrics|sport|sports|football|soccer|basketball|nba|nfl|score|scores|match|"
        "capital|president|prime minister|election|poem|poems|haiku|limerick|limericks|sonnet|"
        "story|stories|"
        "meaning of life|birthday|restaurant|restaurants|pizza|coffee|lunch|dinner|dog|dogs|"
        "cat|cats|pet|vacation|holiday|travel|flight|flights|hotel|girlfriend|boyfriend|"
        "dating|horoscope|zodiac|chess|trivia|tallest|distance to|moon|planet|dinosaur*|"
        "chiste*|clima|lluvia|blague*|meteo|pluie|witz*|wetter|regen|piada*|chuva|receta|"
        "recette|rezept|receita|pelicula|cancion|chanson|lied|musica|futbol|fussball|"
        "how are you|how r u|hows it going|are you human|are you real|do you love|"
        "marry me|bored|sing|dance|homework|translate|spell|synonym|define|bitcoin|crypto|"
        "stock price|lottery|traffic|news|celebrity|celebrities|gossip|sandwich|tea|beer|"
        "wine|guitar|painting|poetry|novel|book|books|quote|quotes|fact|facts|"
        "como estas|ca va|comment vas|wie gehts|wie geht es|tudo bem|como vai",
    ),
    # --- follow-ups ---
    (
        "yes",
        "YES",
        "yes|yeah|yea|yep|yup|ya|yass|sure|ok|okay|okey|k|kk|alright|all right|"
        "absolutely|definitely|of course|please do|go ahead|go for it|do it|do that|do this|"
        "lets do it|lets go|sounds good|sounds great|sounds perfect|perfect|correct|right|"
        "exactly|affirmative|confirm|confirmed|si|claro|vale|dale|de acuerdo|por supuesto|"
        "oui|d accord|bien sur|ouais|volontiers|ja|jawohl|genau|klar|gerne|passt|sim|pode|"
        "isso|beleza|com certeza|claro que sim|yes please|that works|works for me|"
        "that one works|ship it|proceed|carry on|continue|looks good|lgtm|go on|adelante|"
        "vas-y|allez-y|los gehts|bora|manda ver|fire away|certo|va bene|d accordo|perfetto|"
        "volentieri|procedi|vai pure",
    ),
    (
        "cancel",
        "NO V_CANCEL",
        "cancel|cancels|cancelled|canceled|cancelling|canceling|cancela|cancelar|annule|"
        "annuler|kundig*|kuendig*|storniere|abbrechen",
    ),
    (
        "no",
        "NO",
        "no|nope|nah|not now|no thanks|no thank you|never mind|nevermind|"
        "forget it|dont|do not|not|non|nein|nao|nicht|jamais|nunca|never|negative|"
        "not really|skip it|skip|abort|leave it",
    ),
    (
        "ordinal",
        "ORD",
        "first|second|third|fourth|fifth|sixth|last|latter|former|1st|2nd|"
        "3rd|4th|5th|primero|primera|primer|segundo|tercero|tercera|tercer|cuarto|quinto|"
        "ultimo|ultima|premier|premiere|deuxieme|seconde|troisieme|quatrieme|cinquieme|"
        "dernier|derniere|erste|ersten|erster|erstes|zweite|zweiten|zweiter|dritte|dritten|"
        "dritter|vierte|vierten|funfte|letzte|letzten|letzter|primeiro|primeira|terceiro|"
        "terceira|quarto|quarta|quinta|ultimo|option|opcion|opcao|nummer|numero|number",
    ),
    (
        "instruction_meta",
        "META",
        "action_type|action type|intent|intents|prompt|"
        "instructions|instruction|system prompt|jailbreak|override|disregard",
    ),
)

# Canonical names of the tools the entity extractor knows; all of them collapse to one
# feature word, because which tool is named says little about what the user wants done.
SOURCE_WORD = "__source__"
CHAT_WORD = "__chat__"
AGENT_WORD = "__agent__"


def words(text: str) -> frozenset[str]:
    """A set of words written as one space-separated string, for readable word lists."""
    return frozenset(text.split())


# Function words: no feature of their own (they correlate with sentence length, not intent).
STOPWORDS: frozenset[str] = words(
    "a an the to of for in on at by with from and or but is are was be been i me we us you "
    "your this that these those so just please can could would will shall should may might "
    "el la los las un una de del en y o que por para le les des du et ou un une der die "
    "das den dem ein eine und oder mit fur von zu o a os as um uma do da dos das e ou com "
    "para"
)

# Ordinal words to 1-based positions ("last" is -1).
ORDINALS: dict[str, int] = {
    "first": 1,
    "1st": 1,
    "one": 1,
    "primero": 1,
    "primera": 1,
    "primer": 1,
    "premier": 1,
    "premiere": 1,
    "erste": 1,
    "ersten": 1,
    "erster": 1,
    "erstes": 1,
    "primeiro": 1,
    "primeira": 1,
    "uno": 1,
    "un": 1,
    "eins": 1,
    "um": 1,
    "second": 2,
    "2nd": 2,
    "two": 2,
    "segundo": 2,
    "segunda": 2,
    "deuxieme": 2,
    "seconde": 2,
    "zweite": 2,
    "zweiten": 2,
    "zweiter": 2,
    "dos": 2,
    "deux": 2,
    "zwei": 2,
    "dois": 2,
    "duas": 2,
    "third": 3,
    "3rd": 3,
    "three": 3,
    "tercero": 3,
    "tercera": 3,
    "tercer": 3,
    "troisieme": 3,
    "dritte": 3,
    "dritten": 3,
    "dritter": 3,
    "terceiro": 3,
    "terceira": 3,
    "tres": 3,
    "trois": 3,
    "drei": 3,
    "fourth": 4,
    "4th": 4,
    "four": 4,
    "cuarto": 4,
    "cuarta": 4,
    "quatrieme": 4,
    "vierte": 4,
    "vierten": 4,
    "quarto": 4,
    "quarta": 4,
    "cuatro": 4,
    "quatre": 4,
    "vier": 4,
    "quatro": 4,
    "fifth": 5,
    "5th": 5,
    "five": 5,
    "quinto": 5,
    "quinta": 5,
    "cinquieme": 5,
    "funfte": 5,
    "cinco": 5,
    "cinq": 5,
    "funf": 5,
    "sixth": 6,
    "6th": 6,
    "six": 6,
    "seventh": 7,
    "7th": 7,
    "seven": 7,
    "last": -1,
    "latter": -1,
    "ultimo": -1,
    "ultima": -1,
    "dernier": -1,
    "derniere": -1,
    "letzte": -1,
    "letzten": -1,
    "letzter": -1,
    "former": 1,
    "erstere": 1,
    "ersteres": 1,
    "letztere": -1,
    "letzteres": -1,
}

# Data sources and tools: canonical lower_snake name -> aliases (accent-stripped, lower-case).
SOURCES: dict[str, tuple[str, ...]] = {
    "notion": ("notion", "notion db", "notion database", "notion pages"),
    "jira": ("jira", "jira board", "jira cloud", "atlassian jira"),
    "confluence": ("confluence",),
    "google_sheets": (
        "google sheets",
        "google sheet",
        "gsheets",
        "gsheet",
        "g sheets",
        "google spreadsheet",
        "google spreadsheets",
        "sheets",
    ),
    "google_drive": ("google drive", "gdrive", "drive folder", "g drive"),
    "google_docs": ("google docs", "google doc", "gdocs"),
    "google_calendar": ("google calendar", "gcal", "calendar"),
    "google_analytics": ("google analytics", "ga4"),
    "gmail": ("gmail", "g mail"),
    "outlook": ("outlook", "office 365", "o365"),
    "excel": ("excel", "xlsx"),
    "salesforce": ("salesforce", "sfdc", "sales force"),
    "hubspot": ("hubspot", "hub spot"),
    "pipedrive": ("pipedrive",),
    "zoho": ("zoho", "zoho crm"),
    "github": ("github", "git hub", "gh"),
    "gitlab": ("gitlab",),
    "bitbucket": ("bitbucket",),
    "linear": (
        "linear app",
        "linear issues",
        "linear issue",
        "linear tickets",
        "in linear",
        "from linear",
        "linear board",
        "linear project",
        "linear projects",
        "linear for",
        "linear cycle",
        "linear cycles",
        "meant linear",
        "linear team",
        "our linear",
        "linear workspace",
        "use linear",
        "using linear",
        "to linear",
        "on linear",
        "linear instead",
    ),
    "asana": ("asana",),
    "trello": ("trello",),
    "monday": ("monday.com", "monday com", "mondaycom"),
    "clickup": ("clickup", "click up"),
    "airtable": ("airtable",),
    "zendesk": ("zendesk", "zen desk"),
    "freshdesk": ("freshdesk",),
    "intercom": ("intercom",),
    "servicenow": ("servicenow", "service now"),
    "stripe": ("stripe",),
    "shopify": ("shopify",),
    "quickbooks": ("quickbooks", "qbo", "quick books"),
    "xero": ("xero",),
    "personio": ("personio",),
    "okta": ("okta",),
    "shipbob": ("shipbob", "ship bob"),
    "mailchimp": ("mailchimp",),
    "postgresql": ("postgresql", "postgres", "psql", "pg database", "postgres db"),
    "mysql": ("mysql",),
    "mongodb": ("mongodb", "mongo"),
    "bigquery": ("bigquery", "big query"),
    "snowflake": ("snowflake",),
    "redshift": ("redshift",),
    "s3": ("s3", "s3 bucket", "aws s3"),
    "dropbox": ("dropbox",),
    "sharepoint": ("sharepoint", "share point"),
    "onedrive": ("onedrive", "one drive"),
    "datadog": ("datadog",),
    "sentry": ("sentry",),
    "pagerduty": ("pagerduty", "pager duty"),
    "grafana": ("grafana",),
    "twitter": ("twitter",),
    "linkedin": ("linkedin",),
    "youtube": ("youtube",),
    "google_ads": ("google ads", "adwords"),
    "workday": ("workday",),
    "bamboohr": ("bamboohr", "bamboo hr"),
    "greenhouse": ("greenhouse",),
    "typeform": ("typeform",),
    "calendly": ("calendly",),
    "figma": ("figma",),
    "rss": ("rss", "rss feed", "rss feeds"),
}

# Chat and mail tools: they are usually where results go, sometimes what is read.
CHAT_TOOLS: dict[str, tuple[str, ...]] = {
    "slack": ("slack",),
    "microsoft_teams": ("microsoft teams", "ms teams", "msteams", "teams channel"),
    "discord": ("discord",),
    "telegram": ("telegram",),
    "whatsapp": ("whatsapp", "whats app"),
}

# Ordinary words that must never be "corrected" into a lexicon word ("play" is not "pay",
# "some" is not "same"): the typo corrector only touches words outside this list, the
# lexicon and the training vocabulary.
COMMON_WORDS: frozenset[str] = words(
    """
    about above across act action actually add after afternoon again against ago agree ahead
    air all almost alone along already also although always am among amount and another answer
    any anybody anyone anything anyway anywhere apart appear apply area around arrive art as ask
    asked asking at away baby back bad bag ball bank bar base basic be bear beat beautiful became
    because become bed been before began begin behind being believe below best better between big
    bird bit black blood blue board boat body book born both bottom box boy break bring brother
    brought build building built business busy but buy by call called calls came can car card
    care carry case catch caught cause center certain chair chance change character cheap check
    child children choice choose church city class clean clear close cold come comes coming
    common company complete could count country couple course cover create cross cup current cut
    dark daughter dead deal dear decide deep degree desk detail did die different difficult
    dinner direction do doctor does doing done door double down draw dream dress drink drive
    drop during each early earth easy eat edge effect eight either else end enjoy enough enter
    entire even evening event ever every everybody everyone everything everywhere exact example
    except expect experience explain eye face fact fair fall family far farm fast father fear
    feel feeling feet fell felt few field fight figure fill final finally find fine finger finish
    fire first fish five floor fly follow food foot for force forget form forward found four
    free friend from front full fun game garden gave general get gets getting girl give given
    glad glass go goes going gone good got great green ground group grow guess guy had hair
    half hand happen happened happy hard has hat have having he head hear heard heart heavy held
    hello help her here herself high him himself his history hit hold hole home hope horse hot
    hour house how however huge human hundred idea if imagine important in inside instead
    interest into is issue it its itself job join just keep kept kid kind king knew know known
    land language large last late later laugh lay lead learn least leave left leg less let
    letter level lie life light like likely line list listen little live long look looked
    looking lose lost lot loud love low made main make man many mark market matter may maybe me
    mean measure meet meeting member men middle might mind minute miss moment money month
    more most mother mountain move much music must my myself name near nearly need needs never
    new next nice night nine no nobody none nor normal north not note nothing notice now number
    of off offer office often oh old on once one only open or order other others our out over
    own page paper part party pass past pay people perhaps period person pick picture piece
    place plan plant play please plus point police poor position possible power practice prepare
    present pretty probably problem process produce program provide public pull put question
    quick quickly quiet quite race rain raise ran rather reach read ready real really reason
    receive record red remember rest result return rich ride right ring rise river road rock
    room round rule run safe said same sat save saw say school sea season seat second see seem
    seen sell send sense sent serve set seven several shall shape share she ship shop short
    should shoulder show side sign simple since sing single sister sit six size sleep slow small
    smile snow so soft some somebody someone something sometimes somewhere son song soon sorry
    sort sound south space speak special spend spent stand star start state stay step still stop
    store story street strong student study stuff such suddenly summer sun supposed sure surprise
    table take taken talk tall teacher team tell ten than thank that the their them themselves
    then there these they thing things think third this those though thought thousand three
    through throw thus time tiny to today together told tomorrow too took top total touch toward
    town track trade train travel tree tried trip trouble true truth try trying turn two type
    under understand until up upon us use used useful usual usually very visit voice wait walk
    wall want war warm was watch water way we wear weather week weight well went were west what
    whatever wheel when where whether which while white who whole whom whose why wide wife will
    win wind window winter wish with within without woman women wonder wonderful word words
    work world worry would write wrong yard yeah year yes yet you young your yourself
    jazz guitar piano movie weekend vacation holiday beach mom dad wife husband kid kids cook
    lunch dinner breakfast sushi pasta burger coffee tea beer wine thing stuff okay sure
    anything everything nothing something someone anyone everyone somewhere anywhere
    favorite favourite funny silly crazy weird strange cute lovely pretty ugly huge tiny
    doing going being having making taking getting giving coming looking thinking trying
    thats its wont isnt arent wasnt werent hasnt havent couldnt shouldnt wouldnt im ive
    youre theyre weve theres heres hes shes problem issue
    noise liability timeline screen sale value scope react gain glance corner cheer crate
    spare sharp shed onto location maintenance metric reliable timer coast chest refine crack
    rant dial impossible entrant creamy choke spot swap ditch drift click limit document
    process own outdated star seem stay sign paste fall brand sort
    quieres estan diese dieses gente parte monde deine keiner unserem tenga pueda quedan
    konnten possa podem posible possivel receba quelques donner parce passe reste vieja
    notas nueve conte cuento comite kosten hojas produto produit funciona funcionam
    fonctionne forme frist tard ende wien trier listo gehts copiando scare unchanged bright
    booking rope anymore alte agence patel plaid liest sens conge hazlo
    """
)

# --- the vocabulary generated names are made from ---
# An agent or skill the user did not name gets a name made of the product's own words only: a
# tool of SOURCES or CHAT_TOOLS, the object nouns below and a role word. A word the user typed
# that is not here never reaches such a name, which is stored plain (docs/OPERATIONS.md).
# These lists say what a name may be made of; no classifier reads them, so adding a word
# changes names and never what a message is taken to mean. Objects are written as a name
# writes them (plural, words joined by "-"); a singular in the text names the same object.
NAME_OBJECTS: frozenset[str] = words(
    """
    tickets issues bugs incidents tasks cards stories epics sprints projects milestones
    releases deployments builds commits pull-requests merge-requests prs alerts errors
    exceptions outages logs metrics health-checks
    leads deals opportunities contacts accounts companies customers prospects quotes renewals
    signups subscriptions trials churn
    invoices bills receipts payments payouts refunds charges disputes expenses budgets
    revenue costs transactions totals amounts taxes
    orders shipments deliveries returns products inventory stock
    pages documents docs files contracts forms spreadsheets records rows tables notes posts
    articles newsletters campaigns ads comments mentions
    emails messages replies conversations calls meetings events appointments
    candidates applications interviews employees shifts timesheets absences
    feedback surveys responses reviews ratings dates addresses
    """
)
# The role word a generated agent name ends with ("jira-tickets-monitor"); the wizard picks it
# from what the agent does.
AGENT_ROLES: frozenset[str] = words("monitor reporter sync")
# The role word a generated skill name ends with ("invoices-extractor"), by the stem of the
# verb its purpose uses; the first word of the purpose that starts with one of them decides.
SKILL_ROLES: tuple[tuple[str, str], ...] = (
    ("extract", "extractor"),
    ("pars", "parser"),
    ("convert", "converter"),
    ("turn", "converter"),
    ("transform", "converter"),
    ("classif", "classifier"),
    ("categori", "classifier"),
    ("sort", "classifier"),
    ("label", "classifier"),
    ("tag", "tagger"),
    ("summar", "summarizer"),
    ("translat", "translator"),
    ("format", "formatter"),
    ("normali", "formatter"),
    ("clean", "cleaner"),
    ("validat", "validator"),
    ("check", "checker"),
    ("verif", "checker"),
    ("read", "reader"),
    ("writ", "writer"),
    ("draft", "writer"),
    ("generat", "generator"),
    ("calculat", "calculator"),
    ("comput", "calculator"),
    ("match", "matcher"),
    ("dedup", "deduplicator"),
    ("detect", "detector"),
    ("scor", "scorer"),
    ("route", "router"),
    ("routing", "router"),
)
