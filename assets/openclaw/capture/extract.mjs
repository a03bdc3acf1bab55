const D="/root/.cache/realclaw/openclaw/node_modules/openclaw/dist";
const cat = await import(D+"/tool-catalog-CLTpLFor.mjs");
const shared = await import(D+"/tool-policy-shared-auQCQEhM.mjs");
const consts = await import(D+"/constants-D1dHTp_E.mjs");
const sections = cat.i({swarmEnabled:true, githubPublicationAvailable:true});
const out = { groups: cat.t, profiles: Object.fromEntries(["minimal","coding","messaging","full"].map(p=>[p, cat.a(p)])),
  sections, defaultAllow: consts.m, defaultDeny: consts.h };
console.log(JSON.stringify(out,null,1));
