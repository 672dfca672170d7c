// chrono-node 2.10.3 (MIT, Wanasit Tanakitrungruang), built by scripts/vendor.mjs: do not edit.
import{N as o,O as e}from"./chunk-XMOQFRUM.mjs";var r=new o,t=new e(r.createCasualConfiguration(!1)),i=new e(r.createConfiguration(!0,!1)),s=new e(r.createCasualConfiguration(!0));export{t as casual};
