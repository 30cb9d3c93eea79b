"""The lexicon's verbs: creating things, skills, running things and changing things."""

from __future__ import annotations

VERBS: tuple[tuple[str, str, str], ...] = (
    # --- creating things ---
    ("create", "V_CREATE",
     "create*|creat*|build*|built|develop*|design*|craft*|spin up|spin off|set up|setup|"
     "setting up|put together|whip up|establish*|crear|creo|creame|crea|creas|cree|creemos|"
     "creen|creer|creez|creons|cree-moi|construir|construye|construya|construyas|"
     "construis|construisez|construire|erstell*|anleg*|leg an|lege an|bauen|baue|baut|bau|"
     "criar|crie|cria|criem|criando|crio|construa|construam|montar|monte|monta|armar|arma|"
     "generame|erzeug*|bastel*|creare|creami|costruire|costruisci|impostare"),
    ("new", "ADJ_NEW",
     "new|nuevo|nueva|nuevos|nuevas|nouveau|nouvelle|nouveaux|neu|neue|neuen|"
     "neuer|neues|novo|nova|novos|novas|another|fresh|brand new|otro|otra|autre|weitere*"),
    ("make", "V_MAKE",
     "make|makes|making|made|hacer|haz|hazme|hagas|haga|faire|fais|faites|"
     "machen|mach|macht|fazer|faca|faz|fazes"),
    ("configure", "V_CONFIGURE",
     "configur*|konfigur*|einricht*|richte ein|richten ein|"
     "mettre en place|mets en place|poner en marcha|implement*"),
    ("automate", "V_AUTOMATE",
     "automat*|auto-*|autonom*|on autopilot|autopilot|hands-free|"
     "hands free|sin intervencion|sans intervention|without anyone|without anybody|on its own|"
     "by itself|by themselves|without me|without lifting a finger|hands off|hands-off|"
     "solo|von selbst|sozinho|tout seul"),
    ("agent", "N_AGENT",
     "agent|agents|agente|agentes|agenten|bot|bots|helper|helpers|chatbot*|robot*|robo|"
     "robos|workflow*|assistant|assistants|asistente*|assistente*|pipeline*|routine*|flujo*|"
     "flux|fluxo*|ablauf|ablaufe|job|jobs|automation|automations|automatizacion*|"
     "automatisation*|automatisierung*|automacao|automacoes|worker|workers"),
    ("monitor", "V_WATCH",
     "monitor*|watch*|track*|keep an eye|keep tabs|keeps an eye|keeps tabs|keeping tabs|"
     "keeping an eye|"
     "remind*|vigil*|surveill*|uberwach*|ueberwach*|monitore*|acompanh*|observ*|scan*|"
     "escane*|watchdog|look out for|flag*|detect*|alert me|notify me|ping me|warn*|"
     "avisa*|avise*|previen*|benachrichtig*"),
    # --- skills ---
    ("skill", "N_SKILL",
     "skill|skills|capabilit*|abilit*|tool|tools|function|functions|"
     "plugin*|plug-in*|extension*|capacidad*|habilidad*|herramienta*|competenc*|capacite*|"
     "outil*|fahigkeit*|faehigkeit*|werkzeug*|funktion*|habilidade*|capacidade*|ferramenta*|"
     "funcao|funcoes|funcion|funciones|fonction|fonctions|module|modules|recipe for agents|"
     "building block*|connector*|integracion de habilidad|know-how|knowhow"),
    ("teach", "V_TEACH",
     "teach*|taught|learn*|ensen*|apprend*|beibring*|bring bei|"
     "bringe bei|bring ihm bei|lehr*|ensin*|aprend*|instruct it|show it how|show them how"),
    ("reusable", "ADJ_REUSE",
     "reusable|re-usable|reuse*|re-use*|reutiliz*|reutilis*|"
     "wiederverwend*|shareable|sharable|shared|generic|any agent|all agents|every agent|"
     "all my agents|all our agents|other agents|every bot|all bots|every assistant|each agent|"
     "all assistants|any of my automations|any automation|every workflow|any workflow|"
     "every automation|any bot|any of the agents|all of the agents|all of our agents|"
     "todos los agentes|"
     "tous les agents|alle agenten|todos os agentes|across agents|plug into"),
    ("able", "ADJ_ABLE",
     "able|capable|know how|knows how|be able|puedan|puissent|konnen|"
     "koennen|possam|podria|pourrait|consigam"),
    # --- running things ---
    ("run", "V_RUN",
     "run|runs|running|rerun*|re-run*|execut*|trigger*|launch*|kick off|"
     "kick-off|kickoff|kicks off|fire off|fire up|invoke*|ejecut*|corre|correr|corra|corre lo|"
     "lanza*|lanc*|demarr*|declench*|ausfuhr*|ausfuehr*|fuhr aus|fuhre aus|fuehr aus|"
     "starte|starten|startet|laufen lassen|lass laufen|lauf|rodar|roda|rode|rodando|rodem|"
     "dispar*|iniciar|inicia|inicie|arranc*|go ahead and run|spin it|process it|fire it off|"
     "fire that off|kick it off|retry|retries|retrying|re-try|esegui|eseguilo|eseguire|avvia|"
     "avvialo|avviare|fallo partire|fai partire|give it a spin|a spin|take it for a spin"),
    ("start", "V_START",
     "start|starts|started|starting|begin|comienza|commence*|beginn*|comeca|comece"),
    ("now", "T_NOW",
     "now|right now|immediately|asap|straight away|right away|this minute|"
     "instantly|at once|ahora|ahora mismo|ya mismo|enseguida|maintenant|tout de suite|"
     "immediatement|jetzt|sofort|gleich|agora|ja ja|imediatamente|agorinha|on demand|"
     "manually|manualmente|manuellement|manuell"),
    ("today", "T_TODAY",
     "today|tonight|this morning|this afternoon|hoy|aujourd hui|"
     "aujourdhui|heute|hoje|this week|this month|yesterday|ayer|hier|gestern|ontem"),
    ("once", "T_ONCE",
     "once|one-off|one off|one time|one-time|just this once|single run|"
     "una vez|une fois|einmal|uma vez"),
    ("again", "T_AGAIN",
     "again|once more|one more time|another run|de nuevo|otra vez|"
     "de nouveau|encore|nochmal|noch einmal|nochmals|erneut|wieder|de novo|novamente|"
     "outra vez|repeat*|repet*|wiederhol*|redo|refais|refaire|refaites|rehaz|rehazlo|"
     "rehacer|refaz|refazer|refaca"),
    ("same", "ADJ_SAME",
     "same|last time|like before|as before|previous one|mismo|misma|"
     "meme|gleiche*|selbe*|mesmo|mesma|usual|the usual"),
    ("do", "V_DO", "do|does|doing"),
    ("did", "Q_PAST",
     "did|didnt|has it|have they|was it|were there|was there|have there been|"
     "has there been|hat er|ist er|a-t-il|ha sido|se ha|foi|ja rodou"),
    ("ran", "V_RAN",
     "ran|went out|gone out|fired|got triggered|was triggered|corrio|se ejecuto|a tourne|"
     "ist gelaufen|lief|rodou|correu"),
    ("unsure", "Q_UNSURE",
     "not sure if|not sure whether|know whether|know if|find out whether|find out if|"
     "wondering if|wondering whether|curious whether|curious if|no idea if|no idea whether|"
     "any idea if|any idea whether|no se si|je ne sais pas si|weiss nicht ob|nao sei se|"
     "not sure where|not sure when|no idea where|no idea when|lost on where|lost on how|"
     "dont know where|dont know whether|dont know if|unclear where|unclear whether|"
     "je ne sais meme pas si|je ne sais pas ou|ne sais pas quand|no se ni si|no se donde|"
     "no se cuando|weiss nicht wo|weiss nicht wann|nao sei onde|nao sei quando"),
    ("incapable", "INCAPABLE",
     "cant|cannot|unable|dont know how|doesnt know how|do not know how|does not know how|"
     "dont understand|doesnt understand|not able|no way to|lack*|missing the ability|"
     "no puede*|no pueden|no saben|ne peut pas|ne peuvent pas|ne savent pas|kann nicht|"
     "konnen nicht|koennen nicht|nao consegue*|nao sabem|nao pode*"),
    ("urgent", "T_URGENT",
     "yet|still|urgent*|hurry|soon|in an hour|in ten minutes|in 10 minutes|"
     "in five minutes|in 5 minutes|before the meeting|before standup|before my meeting|"
     "starts soon|deadline|waiting for|right before|ya deberia|toujours pas|immer noch|"
     "ainda nao|todavia"),
    ("chat_only", "CHAT_ONLY",
     "no need to do anything|nothing to do|just wanted to vent|just venting|"
     "just wanted to say|just wanted to share|just saying|dont do anything|"
     "no action needed|just thinking out loud|procrastinating"),
    ("generate", "V_GENERATE",
     "generat*|produc*|compil*|prepar*|draft*|write up|writeup|"
     "pull together|crunch*|put out|genera|generar|genere|generer|erstelle mir|gera|gerar|"
     "elabor*|redact*|redig*|crank out|churn out|pump out"),
    ("get", "V_GET",
     "get|fetch*|grab*|pull|pulls|pulled|retrieve*|collect*|gather*|"
     "obten*|obtien*|recup*|hol|hole|holen|abrufen|busca*|buscar|pega|pegar|extract*|"
     "extrae*|extrai*|scrape*|sync*|import*|load*|download*|descarg*|telecharg*"),
    ("summarize", "V_SUMMARIZE",
     "summar*|resum*|recap*|condens*|digest|tl;dr|tldr|"
     "zusammenfass*|fasse zusammen|fass zusammen|sintetiz*|synthes*"),
    ("analyze", "V_ANALYZE",
     "analy*|analiz*|analis*|auswert*|examin*|investigat*|"
     "evaluat*|assess*|crunch the numbers|look into|dig into|break down|breakdown|audit"),
    ("report", "N_REPORT",
     "report|reports|reporting|rpt|rptr|rprt|rpts|summary|summaries|digest*|recaps|"
     "briefing*|newsletter*|dashboard*|informe*|reporte*|rapport*|bericht*|relatorio*|"
     "resumo*|resumen*|presentation*|presentacion*|praesentation*|prasentation*|"
     "apresentacao|slides|slide deck|deck|chart*|graph*|kpi*|metrics|numbers|figures|"
     "updates|statistics|stats|forecast report|standup notes|minutes|riepilog*|riassunt*|"
     "rapporto|resoconto|rundown|run-down"),
    ("send", "V_SEND",
     "send*|sent|post|posts|posting|posted|notify*|notif*|ping|message me|"
     "deliver*|push|pushes|share|forward*|drop it in|envia*|envie*|enviar|mandar|manda|"
     "mande|envoy*|envoi*|schick*|sende|senden|sendet|zustell*|publica*|publie*|poste*|"
     "text me|dm me|email me|e-mail me|mail me"),
    # --- changing things ---
    ("change", "V_CHANGE",
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
     "put on hold|put it on hold|on hold|flip on|flip off"),
    ("instead", "ADV_INSTEAD",
     "instead|rather|anymore|any more|no longer|from now on|"
     "going forward|from here on|en lugar|en vez|a partir de ahora|plutot|au lieu|"
     "desormais|dorenavant|stattdessen|statt|ab jetzt|kunftig|kuenftig|kuftig|em vez|"
     "ao inves|em lugar|daqui em diante|a partir de agora|not anymore"),
    ("it", "PRON_IT",
     "it|this one|that one|that agent|this agent|the agent|that bot|this bot|"
     "the bot|them|those|these|ese agente|este agente|cet agent|ce agent|diesen agenten|"
     "esse agente|este|ese|esa|esta|ihn|dieser|diesen"),
    ("delete", "V_DELETE",
     "delet*|remov*|get rid of|kill*|destroy*|drop|borr*|elimin*|"
     "supprim*|losch*|loesch*|entfern*|exclu*|apag*|retire*|archiv*|decommission*|"
     "take down|tear down|shut down|shutdown"),
    ("stop", "V_STOP",
     "stop|stops|stopping|stopped|halt*|detener|deten|para de|arrete*|"
     "arreter|stopp*|hor auf|aufhor*|parar|pare|cease"),
)  # fmt: skip
